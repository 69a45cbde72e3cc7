import Foundation
import ResponsesAPI

/// What `inspect replay --against NAME` sends stored requests to: a provider from `providers:` (with its
/// configured model, if it has one), `PROVIDER:MODEL`, or a model on each exchange's own provider.
public struct ReplayTarget: Sendable, Hashable {
    /// Nil: each exchange goes to the provider it went to.
    public var provider: String?
    /// Nil: each exchange keeps its model.
    public var model: String?

    public init(provider: String?, model: String?) {
        self.provider = provider
        self.model = model
    }

    /// `NAME` is a provider when `catalog` has one by that name; `PROVIDER:MODEL` when the part before the
    /// first colon is one (a fine-tuned model's name, `ft:gpt-4.1-mini:org::id`, has colons of its own);
    /// else a model.
    public init(parsing text: String, catalog: ProviderCatalog) throws(SettingError) {
        let name = text.trimmingCharacters(in: .whitespaces)
        guard !name.isEmpty else { throw SettingError("--against needs a model or a provider's name") }
        if let provider = catalog.provider(named: name) {
            self.init(provider: provider.name, model: provider.model)
        } else if let colon = name.firstIndex(of: ":"), let provider = catalog.provider(named: String(name[..<colon])) {
            let model = String(name[name.index(after: colon)...])
            guard !model.isEmpty else { throw SettingError("--against \(name): no model after the provider's name") }
            self.init(provider: provider.name, model: model)
        } else {
            self.init(provider: nil, model: name)
        }
    }

    /// `model gpt-4.1 on provider local`, `provider local (each exchange's model)`.
    public var words: String {
        switch (model, provider) {
        case (let model?, let provider?): "model \(model) on provider \(provider)"
        case (let model?, nil): "model \(model) (each exchange on its own provider)"
        case (nil, let provider?): "provider \(provider) (each exchange's model)"
        case (nil, nil): "each exchange's own model and provider"
        }
    }

    /// The request body to send in place of `body`: the target's model, answered whole (`stream` false, not
    /// in the background), so each replay's answer, usage and time compare with the original's. Nil when
    /// the body is not a JSON object.
    public func body(replacing body: [UInt8]) -> [UInt8]? {
        guard case .object(var object) = (try? JSONValue.parse(body)) ?? .null else { return nil }
        if let model { object["model"] = .string(model) }
        object["stream"] = .bool(false)
        object["background"] = nil
        return JSONValue.object(object).serialized()
    }
}
