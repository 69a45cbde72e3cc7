import Foundation
import ResponsesAPI
import Untrusted
import Workbench

/// `/paste`: what the clipboard holds attached to the next message. `Clipboard` (Workbench) decides which
/// program reads it and what its bytes become; they are kept under the data directory's `pasted/` (named by
/// their SHA-256, mode 0600) and attached as `/attach` attaches a file: an image as `input_image`, text as
/// an `input_text` part. Nothing of the clipboard is written to the terminal but cleaned.
extension REPL {
    func pasteCommand(_ text: String) {
        guard text.isEmpty else {
            context.diagnostics.write("error: /paste takes no arguments (it attaches what the clipboard holds)\n")
            return
        }
        let clipboard = Clipboard(environment: context.environment)
        let (result, _) = bridge.run { () async -> Result<ClipboardContent, ClipboardError> in
            do throws(ClipboardError) {
                return .success(try await clipboard.read())
            } catch {
                return .failure(error)
            }
        }
        let attachment: Attachment
        let content: ClipboardContent
        do {
            content = try result.get()
            let directory = try context.environment.ensureDataDirectory().appendingPathComponent("pasted")
            attachment = try content.attachment(savingIn: directory)
        } catch let error as ClipboardError {
            context.diagnostics.write("/paste: \(TerminalText(singleLine: error.userMessage))\n" as TerminalText)
            return
        } catch {
            context.diagnostics.write("/paste: cannot make the data directory: \(error.localizedDescription)\n")
            return
        }
        let what = content.isImage ? content.mediaType : "text"
        guard !attachments.contains(attachment) else {
            context.output.write("[the same \(what) is already attached: /attach lists what goes, /detach drops it]\n")
            return
        }
        attachments.append(attachment)
        context.output.write(
            "[pasted \(what), \(ByteSize.text(content.bytes.count)) (\(content.tool.rawValue)): goes with your next message]\n"
        )
    }
}
