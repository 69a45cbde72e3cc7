import Library
import ResponsesAPI

/// What a turn's text becomes before it is composed (`PayloadBuilder`), and what follows its answer: the
/// library's passages as numbered context, and footnotes for the `[n]` the answer uses.
public protocol TurnAugmenter: Sendable {
    func augment(_ text: String) async throws -> TurnAugmentation
}

/// A passage a turn was sent with, as `/sources` shows it.
public struct TurnSource: Sendable, Hashable {
    public var location: String
    public var text: String

    public init(location: String, text: String) {
        self.location = location
        self.text = text
    }
}

/// One turn's augmentation: the text sent in place of the user's, notes for the user, the sources, and the
/// footnotes for an answer.
public struct TurnAugmentation: Sendable {
    public var input: String
    public var notes: [String]
    public var sources: [TurnSource]
    public var footnotes: @Sendable (String) -> String

    public init(
        input: String, notes: [String] = [], sources: [TurnSource] = [],
        footnotes: @escaping @Sendable (String) -> String = { _ in "" }
    ) {
        self.input = input
        self.notes = notes
        self.sources = sources
        self.footnotes = footnotes
    }
}

/// Library turns (`/library on`, `library ask`): the best passages within `filter` go with the question as
/// numbered context; the answer's `[n]` become footnotes. `open` opens the library for each turn (and the
/// clients its embedder needs), which is finished when the turn's search is done.
public struct LibraryAugmenter: TurnAugmenter {
    public var filter: LibraryStore.SearchFilter
    public var k: Int?
    let open: @Sendable () throws -> LibraryService

    public init(
        filter: LibraryStore.SearchFilter = .init(), k: Int? = nil,
        open: @escaping @Sendable () throws -> LibraryService
    ) {
        self.filter = filter
        self.k = k
        self.open = open
    }

    public func augment(_ text: String) async throws -> TurnAugmentation {
        let turn = try await self.turn(text)
        return Self.augmentation(turn)
    }

    /// The library's part of the turn (opened, searched, finished).
    public func turn(_ text: String) async throws -> LibraryTurn {
        let service = try open()
        do {
            let turn = try await service.turn(text, k: k, filter: filter)
            await service.finish()
            return turn
        } catch {
            await service.finish()
            throw error
        }
    }

    public static func augmentation(_ turn: LibraryTurn) -> TurnAugmentation {
        var notes = turn.notice.map { [$0] } ?? []
        if turn.hits.isEmpty { notes.append("nothing in the library matches; sent without passages") }
        return TurnAugmentation(
            input: turn.input, notes: notes,
            sources: turn.hits.map { TurnSource(location: $0.location, text: $0.text) },
            footnotes: { turn.footnotes(for: $0) })
    }
}

/// An augmentation worked out before the turn (`library ask` searches first, to answer without a model
/// when nothing matches or none is configured): every turn it augments is sent as that one.
public struct PreparedAugmenter: TurnAugmenter {
    public let augmentation: TurnAugmentation

    public init(_ augmentation: TurnAugmentation) {
        self.augmentation = augmentation
    }

    public func augment(_ text: String) async throws -> TurnAugmentation { augmentation }
}
