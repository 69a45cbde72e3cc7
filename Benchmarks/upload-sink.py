#!/usr/bin/env python3
"""A loopback sink for the upload benchmark: answers /files and the Uploads API like OpenAI does, reading
and discarding every request body. Usage: upload-sink.py PORT_FILE (writes the port it listens on)."""
import json, sys, http.server, itertools

counter = itertools.count(1)

class Sink(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def do_POST(self):
        left = int(self.headers.get("Content-Length", "0"))
        while left > 0:
            chunk = self.rfile.read(min(left, 1 << 20))
            if not chunk:
                break
            left -= len(chunk)
        path = self.path.split("?")[0]
        if path.endswith("/files"):
            body = {"id": f"file-{next(counter)}", "object": "file", "bytes": 0, "filename": "x", "purpose": "assistants"}
        elif path.endswith("/uploads"):
            body = {"id": "upload_1", "object": "upload", "status": "pending"}
        elif path.endswith("/parts"):
            body = {"id": f"part_{next(counter)}", "object": "upload.part"}
        elif path.endswith("/complete"):
            body = {"id": "upload_1", "object": "upload", "status": "completed", "file": {"id": "file-big", "object": "file"}}
        else:
            body = {"error": {"message": "no route"}}
        data = json.dumps(body).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Sink)
with open(sys.argv[1], "w") as f:
    f.write(str(server.server_address[1]))
server.serve_forever()
