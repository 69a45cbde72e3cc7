/// The languages the highlighter knows. Keywords are the languages' reserved words (and the common
/// contextual ones); types the built-in ones.
extension LanguageSyntax {
    static func words(_ text: String) -> Set<String> { Set(text.split(separator: " ").map(String.init)) }

    static let cFamilyKeywords = words(
        "auto break case char const continue default do double else enum extern float for goto if inline int long register restrict return short signed sizeof static struct switch typedef union unsigned void volatile while"
    )

    static let all: [LanguageSyntax] = [
        LanguageSyntax(
            names: ["swift"],
            keywords: words(
                "actor any as associatedtype async await break case catch class continue convenience default defer deinit didSet do dynamic else enum extension fallthrough fileprivate final for func get guard if import in indirect init inout internal is isolated lazy let macro mutating nonisolated nonmutating open operator optional override package precedencegroup private protocol public repeat required rethrows return self Self set some static struct subscript super switch throw throws try typealias unowned var weak where while willSet consuming borrowing sending"
            ),
            types: words(
                "true false nil Int Int8 Int16 Int32 Int64 UInt UInt8 UInt16 UInt32 UInt64 Double Float String Bool Character Array Dictionary Set Optional Void Never Any AnyObject"
            ),
            lineComments: ["//"], blockComment: ("/*", "*/"), strings: ["\"\"\"", "\""], multilineStrings: ["\"\"\""],
            capitalizedTypes: true),
        LanguageSyntax(
            names: ["python", "py", "python3"],
            keywords: words(
                "and as assert async await break class continue def del elif else except finally for from global if import in is lambda match case nonlocal not or pass raise return try while with yield"
            ),
            types: words("True False None int float str bytes bool list dict set tuple object type self cls"),
            lineComments: ["#"], strings: ["\"\"\"", "'''", "\"", "'"], multilineStrings: ["\"\"\"", "'''"],
            capitalizedTypes: true),
        LanguageSyntax(
            names: ["javascript", "js", "jsx", "mjs", "cjs", "typescript", "ts", "tsx"],
            keywords: words(
                "abstract as async await break case catch class const constructor continue debugger declare default delete do else enum export extends finally for from function get if implements import in instanceof interface keyof let new of package private protected public readonly return satisfies set static super switch this throw try type typeof var void while with yield"
            ),
            types: words(
                "true false null undefined NaN Infinity number string boolean any unknown never object symbol bigint void"
            ),
            lineComments: ["//"], blockComment: ("/*", "*/"), strings: ["`", "\"", "'"], multilineStrings: ["`"],
            capitalizedTypes: true, identifierCharacters: "$"),
        LanguageSyntax(
            names: ["json", "jsonc", "json5"], types: words("true false null"), lineComments: ["//"], strings: ["\""],
            keys: true),
        LanguageSyntax(
            names: ["yaml", "yml"], types: words("true false null yes no on off ~"), lineComments: ["#"], keys: true,
            identifierCharacters: "-."),
        LanguageSyntax(
            names: ["sh", "bash", "shell", "zsh", "console", "shell-session"],
            keywords: words(
                "if then else elif fi for in do done while until case esac function return local export readonly declare set unset source alias exit break continue shift trap eval exec select time"
            ),
            types: words("true false echo printf cd test read"),
            lineComments: ["#"], strings: ["\"", "'"], dollarVariables: true, identifierCharacters: "-"),
        LanguageSyntax(
            names: ["sql", "sqlite", "postgresql", "postgres", "mysql"],
            keywords: words(
                "select from where and or not insert into values update set delete create table index view drop alter add column primary key foreign references join left right inner outer full cross on as group by order having limit offset union all distinct case when then else end is null like in between exists with returning begin commit rollback transaction if default constraint unique check asc desc"
            ),
            types: words(
                "integer int bigint smallint text varchar char boolean real double float numeric decimal date time timestamp blob json jsonb serial true false"
            ),
            lineComments: ["--"], blockComment: ("/*", "*/"), strings: ["'", "\""], caseInsensitive: true),
        LanguageSyntax(
            names: ["go", "golang"],
            keywords: words(
                "break case chan const continue default defer else fallthrough for func go goto if import interface map package range return select struct switch type var"
            ),
            types: words(
                "true false nil iota bool byte complex64 complex128 error float32 float64 int int8 int16 int32 int64 rune string uint uint8 uint16 uint32 uint64 uintptr any"
            ),
            lineComments: ["//"], blockComment: ("/*", "*/"), strings: ["`", "\"", "'"], multilineStrings: ["`"]),
        LanguageSyntax(
            names: ["rust", "rs"],
            keywords: words(
                "as async await break const continue crate dyn else enum extern fn for if impl in let loop match mod move mut pub ref return self Self static struct super trait type unsafe use where while macro_rules"
            ),
            types: words(
                "true false i8 i16 i32 i64 i128 isize u8 u16 u32 u64 u128 usize f32 f64 bool char str String Vec Option Result Box Some None Ok Err"
            ),
            lineComments: ["//"], blockComment: ("/*", "*/"), strings: ["\""], capitalizedTypes: true),
        LanguageSyntax(
            names: ["c", "h", "cpp", "c++", "cc", "cxx", "hpp", "objc", "objective-c"],
            keywords: cFamilyKeywords.union(
                words(
                    "alignas alignof and asm bool catch class concept consteval constexpr constinit co_await co_return co_yield decltype delete explicit export friend mutable namespace new noexcept not nullptr operator or private protected public requires static_assert template this thread_local throw try typeid typename using virtual #include #define #ifdef #ifndef #endif #if #else #elif #pragma #undef"
                )),
            types: words(
                "true false NULL nullptr size_t ssize_t uint8_t uint16_t uint32_t uint64_t int8_t int16_t int32_t int64_t bool wchar_t std string vector map"
            ),
            lineComments: ["//"], blockComment: ("/*", "*/"), strings: ["\"", "'"], identifierCharacters: "#"),
        LanguageSyntax(
            names: ["html", "xml", "svg", "xhtml", "plist", "vue"], blockComment: ("<!--", "-->"),
            strings: ["\"", "'"], mode: .markup),
        LanguageSyntax(names: ["diff", "patch"], mode: .diff),
    ]
}
