/// (b)'s figures: the rounds' totals on each side, and each round's own ratio.
struct RoundTrips {
    var local = ClientFleet.Outcome()
    var remote = ClientFleet.Outcome()
    var ratios: [Double] = []

    mutating func add(local here: ClientFleet.Outcome, remote there: ClientFleet.Outcome) {
        local.add(here)
        remote.add(there)
        ratios.append(there.microsecondsPerOp / max(here.microsecondsPerOp, .leastNonzeroMagnitude))
    }

    /// The two rows, the ratio of the totals against the target, and the rounds' spread.
    func report(to table: ResultTable, inProcessName: String, throughDaemonName: String) {
        table.row(inProcessName, String(format: "%.1f µs", local.microsecondsPerOp))
        table.cpu(local)
        table.row(
            throughDaemonName, String(format: "%.1f µs", remote.microsecondsPerOp),
            ratio: remote.microsecondsPerOp / local.microsecondsPerOp, target: "≤ 2× in-process",
            met: remote.microsecondsPerOp <= 2 * local.microsecondsPerOp)
        table.cpu(remote)
        let sorted = ratios.sorted()
        table.note(
            String(
                format: "%d rounds, each side in turn: ratios %.2f–%.2f×, median %.2f×", sorted.count,
                sorted.first ?? 0, sorted.last ?? 0, sorted.isEmpty ? 0 : sorted[sorted.count / 2]))
        table.failures(local.failures + remote.failures)
    }
}
