import Library
import ResponsesAPI

extension FragmentBatch {
    /// The user's message: each fragment as an `input_text` part of its own (`Fragment.block`, which names
    /// its source and hash), then the prompt, then `parts` (a piped file, attachments). Without a prompt the
    /// fragments are the message. The fragments are never read for `{{placeholders}}`: an input template
    /// applies to the prompt's part alone (`TurnSettings.templated`).
    public func message(prompt: String?, parts: [JSONValue] = []) -> JSONValue {
        var content: [JSONValue] = fragments.map { ["type": "input_text", "text": .string($0.block)] }
        if let prompt { content.append(["type": "input_text", "text": .string(prompt)]) }
        content += parts
        return [["role": "user", "content": .array(content)]]
    }
}
