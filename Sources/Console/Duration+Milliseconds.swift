extension Duration {
    /// Whole milliseconds, the rest dropped (an MCP call's time as `mcp call --json` and the tool lines give it).
    var wholeMilliseconds: Int64 { components.seconds * 1000 + components.attoseconds / 1_000_000_000_000_000 }

    /// Milliseconds with their fraction (as the inspector keeps durations).
    var milliseconds: Double { Double(components.seconds) * 1000 + Double(components.attoseconds) / 1e15 }
}
