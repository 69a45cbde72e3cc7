import Foundation
import TestSupport
import Testing
import Untrusted

/// HTML, shell and FTS5 escaping by Unicode scalar or byte, checked against real parsers: Python's HTML
/// parser and bash.
@Suite("Escaping by scalar and byte")
struct EscapingTests {
    @Test func aQuoteWithACombiningMarkIsEscapedInHTML() {
        #expect(HTMLEscaping.escape(HostileServer.htmlModel) == "gpt&quot;\u{0301} open ontoggle=alert(1) x=")
        #expect(HTMLEscaping.escape("<a href='x'>&</a>") == "&lt;a href=&#39;x&#39;&gt;&amp;&lt;/a&gt;")
        #expect(HTMLEscaping.escape("plain é") == "plain é")
    }

    @Test func aQuoteWithACombiningMarkIsEscapedForTheShell() {
        #expect(ShellQuoting.quote("'\u{0301}; touch X #") == "''\\''\u{0301}; touch X #'")
        #expect(ShellQuoting.quote("") == "''")
        // A control byte makes it an ANSI-C word: nothing raw reaches the terminal the dump is pasted into.
        #expect(ShellQuoting.quote("a\u{1B}[201~b'c\\\n") == "$'a\\x1B[201~b\\'c\\\\\\x0A'")
        #expect(ShellQuoting.quote("x\u{9B}y") == "$'x\\xC2\\x9By'")
        var strings = HostileStrings(seed: 12)
        for _ in 0..<2_000 {
            let word = ShellQuoting.quote(strings.next())
            #expect(
                !word.utf8.contains { $0 < 0x20 && $0 != 0x09 && $0 != 0x0A || $0 == 0x7F }
                    && !word.unicodeScalars.contains { (0x80...0x9F).contains($0.value) })
        }
    }

    @Test func ftsPhrasesDoubleEveryQuoteScalar() {
        #expect(FTS5Quoting.phrase("\"\u{0301}") == "\"\"\"\u{0301}\"")
        #expect(FTS5Quoting.phrase("a\u{0}b") == "\"ab\"")
    }

    /// Each random string escaped into an element's text and a quoted attribute parses back, with Python's
    /// HTML parser, to one element with one attribute whose value and text are the string (controls that
    /// HTML forbids as U+FFFD): no element or attribute was added.
    @Test func htmlParsesBackToTheSameTextWithNothingAdded() async throws {
        var strings = HostileStrings(seed: 7)
        let texts = (0..<2_000).map { _ in strings.next() }.map { $0.replacingOccurrences(of: "\u{0}", with: "") }
        var documents: [[String: String]] = []
        for text in texts {
            let escaped = HTMLEscaping.escape(text)
            documents.append([
                "html": "<p title=\"\(escaped)\" class='c'>\(escaped)</p><i title='\(escaped)'></i>", "text": text,
            ])
        }
        let input = try JSONSerialization.data(withJSONObject: documents)
        let script = """
            import json, sys
            from html.parser import HTMLParser
            class P(HTMLParser):
                def __init__(self):
                    super().__init__(convert_charrefs=True); self.tags = []; self.data = ""
                def handle_starttag(self, tag, attrs): self.tags.append((tag, attrs))
                def handle_startendtag(self, tag, attrs): self.tags.append((tag, attrs))
                def handle_data(self, data): self.data += data
            def expected(t):
                t = t.replace("\\r\\n", "\\n").replace("\\r", "\\n")
                return "".join("\\ufffd" if (ord(c) < 32 and c not in "\\t\\n") or ord(c) == 127 else c for c in t)
            bad = 0
            for d in json.load(sys.stdin):
                p = P(); p.feed(d["html"]); p.close()
                want = expected(d["text"])
                ok = [t for t, _ in p.tags] == ["p", "i"] and [k for k, _ in p.tags[0][1]] == ["title", "class"] \\
                    and [k for k, _ in p.tags[1][1]] == ["title"]
                ok = ok and p.tags[0][1][0][1].replace("\\r\\n", "\\n").replace("\\r", "\\n") == want and p.data.replace("\\r\\n", "\\n").replace("\\r", "\\n") == want
                if not ok:
                    bad += 1
                    if bad < 5: print(repr(d["text"]), p.tags, repr(p.data))
            print("bad", bad)
            """
        let result = try await Subprocess.run(
            "/usr/bin/env", ["python3", "-c", script], environment: ["PATH": "/usr/bin:/bin:/usr/local/bin"],
            stdin: String(decoding: input, as: UTF8.self))
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasSuffix("bad 0\n"), "\(result.stdout)")
    }

    /// Each random string, quoted, is one word that bash gives back byte for byte (NUL aside, which no shell
    /// word holds), and nothing runs.
    @Test func shellWordsRoundTripThroughBash() async throws {
        var strings = HostileStrings(seed: 11)
        let texts = (0..<1_500).map { _ in strings.next() }
        let script = texts.map { "printf '%s\\0' \(ShellQuoting.quote($0))" }.joined(separator: "\n")
        let result = try await Subprocess.run("/bin/bash", ["-c", script], environment: ["PATH": "/usr/bin:/bin"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.isEmpty, "\(result.stderr)")
        let words = result.stdout.split(separator: "\0", omittingEmptySubsequences: false).dropLast().map(String.init)
        #expect(words.count == texts.count)
        for (word, text) in zip(words, texts) {
            let expected = String(decoding: text.utf8.filter { $0 != 0 }, as: UTF8.self)
            #expect(Array(word.utf8) == Array(expected.utf8), "\(Array(text.unicodeScalars))")
        }
    }

    @Test func safeFileNamesAreNeverPaths() {
        #expect(SafeFileName("../../.bashrc").name == "bashrc")
        #expect(SafeFileName("/etc/passwd").name == "etc_passwd")
        #expect(SafeFileName("..").name == "file")
        #expect(SafeFileName("", fallback: "file-abc").name == "file-abc")
        #expect(SafeFileName("-rf").name == "rf")
        #expect(SafeFileName(stem: "../../../../", extension: "bashrc_pwned", fallback: "image-1").name == "image-1")
        #expect(SafeFileName(stem: "ig_123", extension: "png").name == "ig_123.png")
        var strings = HostileStrings(seed: 3)
        for _ in 0..<5_000 {
            let name = SafeFileName(strings.next() + "/" + strings.next()).name
            #expect(!name.isEmpty && name.count <= SafeFileName.maximumLength)
            #expect(!name.hasPrefix(".") && !name.hasPrefix("-") && !name.contains("/"))
            #expect(
                name.utf8.allSatisfy {
                    $0 < 0x80
                        && ($0 == 0x2E || $0 == 0x5F || $0 == 0x2D || ($0 >= 0x30 && $0 <= 0x39)
                            || ($0 | 0x20 >= 0x61 && $0 | 0x20 <= 0x7A))
                })
        }
    }
}
