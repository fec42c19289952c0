import Foundation

/// The benchmark's printed table: a measure, its figure, and for a target, the ratio and whether it is met.
final class ResultTable {
    private var lines: [String] = []

    func row(_ name: String, _ figure: String, ratio: Double? = nil, target: String = "", met: Bool? = nil) {
        var line = name.padding(toLength: 50, withPad: " ", startingAt: 0)
        line += figure.padding(toLength: 20, withPad: " ", startingAt: 0)
        line += (ratio.map { String(format: "%.2f×", $0) } ?? "").padding(toLength: 9, withPad: " ", startingAt: 0)
        line += target.padding(toLength: 18, withPad: " ", startingAt: 0)
        if let met { line += met ? "met" : "NOT met" }
        lines.append(line)
    }

    func note(_ text: String) { lines.append("    " + text) }

    /// The CPU time an operation cost: in the client processes, and in the daemon when it was measured.
    func cpu(_ outcome: ClientFleet.Outcome) {
        var text = String(format: "CPU per op: clients %.1f µs", outcome.clientCPUMicrosecondsPerOp)
        if let daemon = outcome.daemonCPUMicrosecondsPerOp { text += String(format: ", keychaind %.1f µs", daemon) }
        note(text)
    }

    /// Operations that did not succeed: the figures above count only the ones that did.
    func failures(_ count: Int) {
        if count > 0 { note("\(count) operations FAILED (not counted)") }
    }

    func print() {
        Swift.print(
            "measure".padding(toLength: 50, withPad: " ", startingAt: 0)
                + "figure".padding(toLength: 20, withPad: " ", startingAt: 0) + "ratio    target            result")
        for line in lines { Swift.print(line) }
    }
}
