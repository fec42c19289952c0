import Foundation

/// The driver's sizes, from the environment (scripts/daemon-benchmark.sh documents them).
struct BenchmarkSettings {
    var clients = 16
    var addsPerClient = 200
    var lookupsPerClient = 5_000
    var roundTrips = 5_000
    /// (b) alternates in-process and daemon lookups in this many rounds, ROUND_TRIPS lookups in all per side.
    var roundTripRounds = 5
    /// (b) runs each round a second time after this many untimed lookups in the same process (0: not at all).
    var roundTripWarmUp = 2_000
    var items = 100_000
    var fillSeconds = 600
    var floorOps = 300

    static func fromEnvironment() -> BenchmarkSettings {
        let environment = ProcessInfo.processInfo.environment
        func number(_ name: String, _ fallback: Int) -> Int { environment[name].flatMap { Int($0) } ?? fallback }
        var settings = BenchmarkSettings()
        settings.clients = max(1, number("CLIENTS", settings.clients))
        settings.addsPerClient = max(1, number("ADDS", settings.addsPerClient))
        settings.lookupsPerClient = max(1, number("LOOKUPS", settings.lookupsPerClient))
        settings.roundTrips = max(1, number("ROUND_TRIPS", settings.roundTrips))
        settings.roundTripRounds = min(
            max(1, number("ROUND_TRIP_ROUNDS", settings.roundTripRounds)), settings.roundTrips)
        settings.roundTripWarmUp = max(0, number("ROUND_TRIP_WARM_UP", settings.roundTripWarmUp))
        settings.items = max(0, number("ITEMS", settings.items))
        settings.fillSeconds = max(1, number("FILL_SECONDS", settings.fillSeconds))
        settings.floorOps = max(1, number("FLOOR_OPS", settings.floorOps))
        return settings
    }
}
