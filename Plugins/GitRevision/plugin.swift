import Foundation
import PackagePlugin

/// Gives the executable the git revision it is built from (`openresponses --version`): before each build,
/// `git rev-parse` writes `Revision.swift` (`BuildRevision.git`, "-dirty" when tracked files have changes,
/// "unknown" outside a checkout), rewritten only when it changes so that an unchanged revision recompiles
/// nothing.
@main
struct GitRevision: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let output = context.pluginWorkDirectoryURL.appendingPathComponent("Revision", isDirectory: true)
        let script = #"""
            mkdir -p "$1"
            revision=$(git -C "$2" rev-parse --short=12 HEAD 2>/dev/null || echo unknown)
            if [ "$revision" != unknown ] && [ -n "$(git -C "$2" status --porcelain --untracked-files=no 2>/dev/null | head -c 1)" ]; then
              revision="$revision-dirty"
            fi
            printf 'enum BuildRevision {\n    static let git = "%s"\n}\n' "$revision" > "$1/Revision.swift.new"
            if cmp -s "$1/Revision.swift.new" "$1/Revision.swift"; then rm "$1/Revision.swift.new"; else mv "$1/Revision.swift.new" "$1/Revision.swift"; fi
            """#
        return [
            .prebuildCommand(
                displayName: "git revision of \(context.package.directoryURL.lastPathComponent)",
                executable: URL(fileURLWithPath: "/bin/sh"),
                arguments: ["-c", script, "revision", output.path, context.package.directoryURL.path],
                outputFilesDirectory: output)
        ]
    }
}
