import Foundation
import ResponsesAPI
import TestSupport
import Testing

/// Issue 49, `/paste` in a real terminal: a fake `wl-paste` first on the console's PATH on "Wayland"; what it
/// prints goes with the next message (the loopback server's recorded request); with no clipboard program at
/// all, the console names the ones it looked for.
@Suite("paste in the console", .serialized)
struct PasteConsoleTests {
    @Test func aPastedImageOrTextGoesWithTheNextMessage() async throws {
        let fake = try FakeClipboard()
        defer { fake.remove() }
        try fake.wlPaste(types: ["text/plain", "image/png"], image: FakeClipboard.png, text: "not this")
        let prepare: (inout ConsoleHarness) throws -> Void = {
            $0.extraVariables = ["PATH": fake.path, "WAYLAND_DISPLAY": "wayland-0"]
        }
        try await ConsoleHarness.withConsole(route: scriptedRoute(counter: Counter()), prepare: prepare) {
            tmux, server, harness in
            let size = FakeClipboard.png.count
            try await tmux.send(
                "/paste", until: "[pasted image/png, \(size) bytes (wl-paste): goes with your next message]")
            try await tmux.send("describe it", until: "echo: describe it")
            let body = try JSONValue.parse(try #require(server.requests.last).body)
            let content = try #require(body["input"]?[0]?["content"])
            #expect(content[0] == ["type": "input_text", "text": "describe it"])
            #expect(content[1]?["type"] == "input_image")
            #expect(
                content[1]?["image_url"]
                    == .string("data:image/png;base64," + Data(FakeClipboard.png).base64EncodedString()))
            // Kept in the data directory, readable by the user alone.
            let pasted = harness.home.appendingPathComponent("pasted")
            let names = try FileManager.default.contentsOfDirectory(atPath: pasted.path)
            try #require(names.count == 1 && names[0].hasSuffix(".png"))
            let attributes = try FileManager.default.attributesOfItem(
                atPath: pasted.appendingPathComponent(names[0]).path)
            #expect(attributes[.posixPermissions] as? Int == 0o600)

            // Text: an input_text part of its own; the next message after it goes alone.
            try fake.wlPaste(types: ["text/plain;charset=utf-8"], text: "pasted words")
            try await tmux.send("/paste", until: "[pasted text, 12 bytes (wl-paste): goes with your next message]")
            try await tmux.send("read this", until: "echo: read this pasted words")
            let sent = try JSONValue.parse(try #require(server.requests.last).body)["input"]?[0]?["content"]
            #expect(sent?[1] == ["type": "input_text", "text": "pasted words"])

            // A failing program's stderr is shown cleaned: its escape sequence as pictures, never run.
            try fake.script("wl-paste", "printf 'cannot \\033]0;pwned\\007 connect' >&2; exit 1")
            try await tmux.send("/paste", until: "/paste: wl-paste failed (exit status 1): cannot ␛]0;pwned␇ connect")
            try await tmux.send("alone now", until: "echo: alone now")
            #expect(try JSONValue.parse(try #require(server.requests.last).body)["input"] == "alone now")
            try await tmux.quit()
        }
    }

    @Test func withNoClipboardProgramItSaysWhichAreMissing() async throws {
        let empty = try FakeClipboard()
        defer { empty.remove() }
        // Only an empty folder on PATH: whatever the machine has installed is not found.
        let prepare: (inout ConsoleHarness) throws -> Void = {
            $0.extraVariables = ["PATH": empty.directory.path, "WAYLAND_DISPLAY": "wayland-0"]
        }
        try await ConsoleHarness.withConsole(route: scriptedRoute(counter: Counter()), prepare: prepare) {
            tmux, server, _ in
            try await tmux.send(
                "/paste",
                until: "/paste: no clipboard tool found: install wl-clipboard (Wayland) or xclip or xsel (X11)")
            try await tmux.send("hello", until: "echo: hello")
            #expect(try JSONValue.parse(try #require(server.requests.last).body)["input"] == "hello")
            try await tmux.quit()
        }
    }
}
