/// What `status` answers: the daemon's version, how long it has run, how many clients are connected and how
/// many requests are waiting or running.
package struct DaemonStatus: Hashable, Sendable {
    package let version: String
    package let protocolVersion: Int
    package let uptimeSeconds: Double
    package let clients: Int
    package let queueDepth: Int

    package init(version: String, protocolVersion: Int, uptimeSeconds: Double, clients: Int, queueDepth: Int) {
        self.version = version
        self.protocolVersion = protocolVersion
        self.uptimeSeconds = uptimeSeconds
        self.clients = clients
        self.queueDepth = queueDepth
    }

    package var fields: FieldList {
        FieldList([
            ("version", version), ("protocol", String(protocolVersion)),
            ("uptime", String(format3(uptimeSeconds))), ("clients", String(clients)),
            ("queue-depth", String(queueDepth)),
        ])
    }

    /// Reads the fields of a `status-reply`; nil when one is missing or not a number.
    package init?(fields: FieldList) {
        guard let version = fields["version"], let protocolVersion = fields["protocol"].flatMap({ Int($0) }),
            let uptime = fields["uptime"].flatMap({ Double($0) }), let clients = fields["clients"].flatMap({ Int($0) }),
            let queueDepth = fields["queue-depth"].flatMap({ Int($0) })
        else { return nil }
        self.init(
            version: version, protocolVersion: protocolVersion, uptimeSeconds: uptime, clients: clients,
            queueDepth: queueDepth)
    }

    private func format3(_ value: Double) -> String {
        String((value * 1000).rounded() / 1000)
    }
}
