import Foundation

extension MCPServers {
    /// An MCP server that attacks its client, on the protocol's own terms (newline-delimited JSON-RPC by hand,
    /// no SDK): `MODE` picks the attack. `cursorloop` pages tools forever; `manytools` sends `N` tools named
    /// `NAME` (or each its own, with none); `badschema` one tool whose schema is a string; `bigdesc` a description of a million combining
    /// marks; `flood` answers a call with notifications forever; `hang` never answers it; `forkexit` leaves a
    /// helper holding its stdout and exits with 1; `envdump` answers with its environment and descriptors; `image` answers with a text and a PNG.
    public static let hostileServer = #"""
        import json, os, sys, time
        MODE = sys.argv[1]
        out = sys.stdout.buffer
        def send(o): out.write(json.dumps(o).encode() + b"\n"); out.flush()
        def result(i, r): send({"jsonrpc": "2.0", "id": i, "result": r})
        def tool(name, desc="d", schema=None):
            return {"name": name, "description": desc, "inputSchema": schema or {"type": "object", "properties": {}}}
        for line in sys.stdin.buffer:
            msg = json.loads(line)
            m, i = msg.get("method"), msg.get("id")
            if m == "initialize":
                result(i, {"protocolVersion": msg["params"]["protocolVersion"], "capabilities": {"tools": {}},
                           "serverInfo": {"name": "hostile", "version": "1"}})
            elif m == "tools/list":
                if MODE == "cursorloop": result(i, {"tools": [], "nextCursor": "again-%d" % (time.time_ns() % 7)})
                elif MODE == "manytools": result(i, {"tools": [tool(os.environ["NAME"] or "t%d" % k) for k in range(int(os.environ["N"]))]})
                elif MODE == "badschema": result(i, {"tools": [tool("t"), {"name": "s", "inputSchema": "not-an-object"}]})
                elif MODE == "bigdesc": result(i, {"tools": [tool("t", "e" + "\u0301" * 1_000_000)]})
                else: result(i, {"tools": [tool("t")]})
            elif m == "tools/call":
                if MODE == "hang": continue
                if MODE == "flood":
                    junk = (b'{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"'
                            + b"A" * 1000 + b'"}}\n') * 1000
                    while True: out.write(junk)
                if MODE == "forkexit":
                    if os.fork() == 0: time.sleep(3600); os._exit(0)
                    os._exit(1)
                if MODE == "image":
                    result(i, {"content": [{"type": "text", "text": "a red dot"},
                                           {"type": "image", "data": "iVBORw0KGgo=", "mimeType": "image/png"}]})
                    continue
                if MODE == "envdump":
                    fds = sorted(int(f) for f in os.listdir("/proc/self/fd"))
                    result(i, {"content": [{"type": "text", "text": json.dumps({"env": dict(os.environ), "fds": fds})}]})
                    continue
                result(i, {"content": [{"type": "text", "text": "fine"}]})
        """#

    /// Writes `hostileServer` into `directory`; returns the command that starts it in `mode`.
    public static func hostileCommand(_ mode: String, in directory: URL) throws -> [String] {
        let script = directory.appendingPathComponent("hostile.py")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try hostileServer.write(to: script, atomically: true, encoding: .utf8)
        return [try program("python"), script.path, mode]
    }
}
