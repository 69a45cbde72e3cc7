/// The renderer's output while it renders: UTF-8 bytes appended in many small pieces (a word, an escape
/// code, a space). An array's generic append costs about a hundred instructions a call, which was a
/// tenth of the renderer's time; here an append is a capacity check and a copy. Not copyable: one owner,
/// freed when it goes; its bytes are handed on (`withUnsafeBufferPointer`) at the end of each call.
struct RenderBuffer: ~Copyable {
    private var base: UnsafeMutablePointer<UInt8>?
    private(set) var count = 0
    private var capacity = 0

    init() {}

    /// The size of the first allocation, made at the first append (a call that writes nothing allocates nothing).
    private var firstCapacity = 256

    /// An empty buffer that takes room for `capacity` bytes once something is written (the renderer asks
    /// for what its last calls wrote, so a call's output is not copied up through doublings).
    init(capacity: Int) {
        firstCapacity = Swift.max(capacity, 256)
    }

    /// Whether `base` is this buffer's own allocation (else borrowed storage, not freed here).
    private var owned = true

    /// A buffer that writes into `storage` (the caller's, on its stack: most calls write less than it holds,
    /// and then nothing is allocated) until it is full, then into an allocation of its own of at least
    /// `capacity` bytes.
    init(borrowing storage: UnsafeMutableBufferPointer<UInt8>, capacity: Int) {
        base = storage.baseAddress
        self.capacity = base == nil ? 0 : storage.count
        owned = false
        firstCapacity = Swift.max(capacity, 256)
    }

    deinit { if owned { base?.deallocate() } }

    var isEmpty: Bool { count == 0 }

    subscript(index: Int) -> UInt8 {
        precondition(index >= 0 && index < count, "RenderBuffer index \(index) out of 0..<\(count)")
        return base![index]
    }

    /// Room for `extra` more bytes (the check inlined at every append; growing is a call).
    @inline(__always)
    private mutating func reserve(_ extra: Int) {
        if count + extra > capacity { grow(extra) }
    }

    /// At least double what there was, so appends stay cheap on average.
    @inline(never)
    private mutating func grow(_ extra: Int) {
        let needed = count + extra
        let grown = Swift.max(needed, capacity * 2, firstCapacity)
        let fresh = UnsafeMutablePointer<UInt8>.allocate(capacity: grown)
        if let base {
            fresh.update(from: base, count: count)
            if owned { base.deallocate() }
        }
        owned = true
        base = fresh
        capacity = grown
    }

    mutating func append(_ byte: UInt8) {
        if count == capacity { reserve(1) }
        base![count] = byte
        count += 1
    }

    mutating func append(contentsOf bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
        let length = bytes.count
        reserve(length)
        RenderBuffer.copy(source, to: base! + count, count: length)
        count += length
    }

    /// `length` bytes copied from `source` to `target`. Most pieces are short (a word, a style's codes, a token
    /// of code, a delta): up to 32 bytes are copied in loads and stores that may overlap, rather than by a call
    /// to memcpy.
    @inline(__always)
    static func copy(_ source: UnsafePointer<UInt8>, to target: UnsafeMutablePointer<UInt8>, count length: Int) {
        let from = UnsafeRawPointer(source)
        let to = UnsafeMutableRawPointer(target)
        if length > 32 {
            target.update(from: source, count: length)
        } else if length > 16 {
            let head = (from.loadUnaligned(as: UInt64.self), from.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
            let tail = (
                from.loadUnaligned(fromByteOffset: length - 16, as: UInt64.self),
                from.loadUnaligned(fromByteOffset: length - 8, as: UInt64.self)
            )
            to.storeBytes(of: head.0, as: UInt64.self)
            to.storeBytes(of: head.1, toByteOffset: 8, as: UInt64.self)
            to.storeBytes(of: tail.0, toByteOffset: length - 16, as: UInt64.self)
            to.storeBytes(of: tail.1, toByteOffset: length - 8, as: UInt64.self)
        } else if length >= 8 {
            let head = from.loadUnaligned(as: UInt64.self)
            let tail = from.loadUnaligned(fromByteOffset: length - 8, as: UInt64.self)
            to.storeBytes(of: head, as: UInt64.self)
            to.storeBytes(of: tail, toByteOffset: length - 8, as: UInt64.self)
        } else if length >= 4 {
            let head = from.loadUnaligned(as: UInt32.self)
            let tail = from.loadUnaligned(fromByteOffset: length - 4, as: UInt32.self)
            to.storeBytes(of: head, as: UInt32.self)
            to.storeBytes(of: tail, toByteOffset: length - 4, as: UInt32.self)
        } else if length > 0 {
            target[0] = source[0]
            target[length >> 1] = source[length >> 1]
            target[length - 1] = source[length - 1]
        }
    }

    mutating func append(contentsOf bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { append(contentsOf: $0) }
    }

    mutating func append(contentsOf bytes: ArraySlice<UInt8>) {
        bytes.withUnsafeBufferPointer { append(contentsOf: $0) }
    }

    mutating func append(_ text: String) {
        var text = text
        text.withUTF8 { append(contentsOf: $0) }
    }

    static func += (buffer: inout RenderBuffer, text: String) {
        buffer.append(text)
    }

    /// `count` spaces.
    mutating func appendSpaces(_ spaces: Int) {
        guard spaces > 0 else { return }
        reserve(spaces)
        (base! + count).initialize(repeating: 0x20, count: spaces)
        count += spaces
    }

    /// `ESC [ 0 m`, which ends every style.
    mutating func appendReset() {
        reserve(4)
        base![count] = 0x1B
        base![count + 1] = 0x5B
        base![count + 2] = 0x30
        base![count + 3] = 0x6D
        count += 4
    }

    mutating func removeAll() {
        count = 0
    }

    func withUnsafeBufferPointer<Result>(_ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
        try body(UnsafeBufferPointer(start: base, count: count))
    }

    /// The bytes appended to `array` (nothing done when there are none: an array's append of nothing still
    /// costs a call through its generic path).
    func append(to array: inout [UInt8]) {
        guard count > 0, let base else { return }
        array.append(contentsOf: UnsafeBufferPointer(start: base, count: count))
    }

    /// The bytes as text (UTF-8 by construction: the input's, cut only between scalars, and ASCII codes).
    var string: String {
        count == 0 ? "" : withUnsafeBufferPointer { String(decoding: $0, as: UTF8.self) }
    }

    /// The bytes from `start` on, as an array.
    func bytes(from start: Int = 0) -> [UInt8] {
        withUnsafeBufferPointer { Array($0[start...]) }
    }
}
