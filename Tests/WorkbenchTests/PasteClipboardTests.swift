import Foundation
import ResponsesAPI
import TestSupport
import Testing

@testable import Workbench

/// Issue 49, `/paste`: which program reads the clipboard, what its bytes become, and the limits, against real
/// scripts standing in for wl-paste and xclip first on the session's PATH.
@Suite("paste: the clipboard")
struct PasteClipboardTests {
    static func clipboard(
        _ fake: FakeClipboard, _ extra: [String: String] = [:], limit: Int = Clipboard.defaultLimit,
        timeout: Duration = Clipboard.defaultTimeout
    ) -> Clipboard {
        Clipboard(
            environment: AppEnvironment(variables: ["PATH": fake.path].merging(extra) { $1 }), limit: limit,
            timeout: timeout)
    }

    static func failure(_ clipboard: Clipboard) async -> ClipboardError? {
        do {
            _ = try await clipboard.read()
            return nil
        } catch {
            return error
        }
    }

    @Test func theDisplayDecidesWhichProgramIsTriedFirst() throws {
        let fake = try FakeClipboard()
        defer { fake.remove() }
        for name in ["wl-paste", "xclip", "xsel"] { try fake.script(name, "exit 0") }
        #expect(Self.clipboard(fake, ["WAYLAND_DISPLAY": "wayland-0", "DISPLAY": ":0"]).locate()?.tool == .wlPaste)
        #expect(Self.clipboard(fake, ["DISPLAY": ":0"]).locate()?.tool == .xclip)
        #expect(Self.clipboard(fake).locate()?.tool == .wlPaste)
        #expect(Self.clipboard(fake, ["DISPLAY": ":0"]).locate()?.path == fake.directory.path + "/xclip")
        try FileManager.default.removeItem(at: fake.directory.appendingPathComponent("xclip"))
        #expect(Self.clipboard(fake, ["DISPLAY": ":0"]).locate()?.tool == .xsel)
        try FileManager.default.removeItem(at: fake.directory.appendingPathComponent("xsel"))
        // On X without xclip or xsel, whatever is there.
        #expect(Self.clipboard(fake, ["DISPLAY": ":0"]).locate()?.tool == .wlPaste)
    }

    @Test func anOfferedImageIsTakenBeforeTextAndKeptAsAnInputImage() async throws {
        let fake = try FakeClipboard()
        defer { fake.remove() }
        try fake.wlPaste(types: ["text/html", "image/png", "text/plain"], image: FakeClipboard.png, text: "<b>no</b>")
        let content = try await Self.clipboard(fake, ["WAYLAND_DISPLAY": "wayland-0"]).read()
        #expect(content.mediaType == "image/png")
        #expect(content.bytes == FakeClipboard.png)
        #expect(content.tool == .wlPaste)
        let pasted = fake.directory.appendingPathComponent("pasted")
        let attachment = try content.attachment(savingIn: pasted)
        #expect(attachment.url.lastPathComponent == content.sha256 + ".png")
        #expect(content.sha256.count == 64)
        let mode = try FileManager.default.attributesOfItem(atPath: attachment.url.path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        #expect(
            try attachment.contentPart()["image_url"]
                == .string("data:image/png;base64," + Data(FakeClipboard.png).base64EncodedString()))
    }

    @Test func textGoesAsAnInputTextPart() async throws {
        let fake = try FakeClipboard()
        defer { fake.remove() }
        try fake.xclip(types: ["TARGETS", "UTF8_STRING", "STRING"], text: "line one\nline two ✓")
        let content = try await Self.clipboard(fake, ["DISPLAY": ":0"]).read()
        #expect(content.mediaType == "text/plain")
        #expect(content.tool == .xclip)
        let attachment = try content.attachment(savingIn: fake.directory.appendingPathComponent("pasted"))
        #expect(try attachment.contentPart() == ["type": "input_text", "text": "line one\nline two ✓"])
    }

    /// The program gets the display's variables and the PATH, never the API key.
    @Test func theProgramRunsWithTheDisplaysVariablesAndNoKey() async throws {
        let fake = try FakeClipboard()
        defer { fake.remove() }
        try fake.script("xsel", "env")
        let variables = ["DISPLAY": ":7", "XAUTHORITY": "/x/auth", "OPENAI_API_KEY": "sk-secret-clipboard"]
        let content = try await Self.clipboard(fake, variables).read()
        let environment = String(decoding: content.bytes, as: UTF8.self)
        #expect(content.tool == .xsel)
        #expect(environment.contains("DISPLAY=:7\n") && environment.contains("XAUTHORITY=/x/auth\n"))
        #expect(environment.contains("PATH=\(fake.path)\n"))
        #expect(!environment.contains("sk-secret-clipboard"))
    }

    @Test func theListedTypesDecideWhatIsFetched() {
        #expect(ClipboardChoice(types: "image/jpeg\nimage/png\n") == .image("image/png"))
        #expect(ClipboardChoice(types: "TARGETS\nimage/webp\r\nUTF8_STRING") == .image("image/webp"))
        #expect(
            ClipboardChoice(types: "text/html\ntext/plain\ntext/plain;charset=utf-8")
                == .text("text/plain;charset=utf-8"))
        #expect(ClipboardChoice(types: "text/uri-list\n") == .text("text/uri-list"))
        #expect(ClipboardChoice(types: "  \n") == .empty)
        #expect(ClipboardChoice(types: "application/x-kde\nimage/bmp") == .neither(["application/x-kde", "image/bmp"]))
    }

    @Test func moreThanTheLimitIsRefusedAndAHangingProgramStopped() async throws {
        let fake = try FakeClipboard()
        defer { fake.remove() }
        try fake.wlPaste(types: ["text/plain"], text: String(repeating: "x", count: 5000))
        let large = await Self.failure(Self.clipboard(fake, limit: 1000))
        #expect(large?.kind == .tooLarge(limit: 1000))
        #expect(large?.userMessage.contains("more than 1000 bytes") == true)

        try fake.script("wl-paste", "sleep 30")
        let began = ContinuousClock.now
        let hung = await Self.failure(Self.clipboard(fake, timeout: .seconds(1)))
        #expect(hung?.kind == .timedOut(seconds: 1))
        #expect(hung?.userMessage.contains("wl-paste did not answer") == true)
        // Stopped, not waited out: under the script's 30 s (a loaded machine took 23 s to start and stop it).
        #expect(ContinuousClock.now - began < .seconds(29))
    }

    @Test func failuresEmptinessAndAMissingProgramAreSaidPlainly() async throws {
        let fake = try FakeClipboard()
        defer { fake.remove() }
        // Only the empty folder on PATH: a clipboard program the machine has is not found either.
        let none = await Self.failure(Clipboard(environment: AppEnvironment(variables: ["PATH": fake.directory.path])))
        #expect(none?.kind == .noTool(searched: [fake.directory.path]))
        #expect(
            none?.userMessage.hasPrefix(
                "no clipboard tool found: install wl-clipboard (Wayland) or xclip or xsel (X11)") == true)

        try fake.script("wl-paste", "echo 'Nothing is copied' >&2; exit 1")
        #expect(await Self.failure(Self.clipboard(fake))?.kind == .empty)

        try fake.script("wl-paste", "printf 'bad \\033]52;c;aGk=\\007 display' >&2; exit 3")
        let failed = await Self.failure(Self.clipboard(fake))
        #expect(failed?.kind == .failed(status: 3, errors: "bad \u{1B}]52;c;aGk=\u{07} display"))

        try fake.wlPaste(types: ["image/png"], image: Array("not a png".utf8))
        #expect(await Self.failure(Self.clipboard(fake))?.kind == .notImage(type: "image/png"))
        try fake.wlPaste(types: ["text/plain"], text: "")
        #expect(await Self.failure(Self.clipboard(fake))?.kind == .empty)
    }
}
