import Foundation
import GatehouseCore
import GatehouseMessaging
import GatehouseStore
import Logging

extension Doctor {
    /// Mail: the templates and addresses render, the transport works (SMTP: connects, TLS, AUTH; SES: a
    /// signed call; the outbox: writable), and the queue is not holding dead or stuck messages.
    /// - Parameters:
    ///   - c: The configuration.
    ///   - storeExists: Whether there is a database to read the queue from.
    ///   - logger: For the transport.
    /// - Returns: The findings.
    static func mailFindings(_ c: GatehouseConfiguration, storeExists: Bool, logger: Logger) async -> [DoctorFinding] {
        var findings: [DoctorFinding] = []
        do {
            let renderer = try MailTransports.renderer(c)
            let sample = try renderer.render(
                MailRequest(kind: .confirmSignUp, to: "doctor@example.com", code: "123456", lifetime: 900),
                id: "doctor",
                date: Date()
            )
            findings.append(.ok("mail.templates", "Messages render (from \(sample.sender))."))
        } catch {
            findings.append(
                .problem(
                    "mail.templates",
                    "Messages cannot be rendered: \(error).",
                    fix: "Fix GATEHOUSE_MAIL_FROM, GATEHOUSE_MAIL_REPLY_TO or the templates in GATEHOUSE_MAIL_TEMPLATES."
                )
            )
        }
        if c.mail.isOutbox {
            findings.append(outboxFinding(c))
        } else {
            let upstream = UpstreamHTTPClient()
            let transport = MailTransports.make(c, upstream: upstream, logger: logger)
            do {
                let lines = try await transport.check()
                findings.append(.ok("mail.transport", "\(transport.name): " + lines.joined(separator: "; ") + "."))
            } catch {
                findings.append(
                    .problem(
                        "mail.transport",
                        "\(transport.name) cannot deliver: \(error).",
                        fix:
                            "Check GATEHOUSE_MAIL (host, port, credentials, TLS) and the provider's dashboard. Sign-in keeps working meanwhile; mail waits in the queue."
                    )
                )
            }
            await transport.shutdown()
            try? await upstream.shutdown()
        }
        guard storeExists, let location = try? StoreLocation(url: c.resolvedDatabaseURL) else { return findings }
        if let counts = try? await location.withStore(logger: logger, { store in try await store.read { try await $0.messageQueueCounts() } }) {
            if counts.dead > 0 {
                findings.append(
                    .warning(
                        "mail.queue",
                        "\(counts.dead) message(s) could not be delivered and were given up on (dead-lettered); \(counts.queued) waiting.",
                        fix: "The server's log has a 'mail dead-lettered' line for each, with the reason. Users can ask for a new code."
                    )
                )
            } else {
                findings.append(.ok("mail.queue", "\(counts.queued) message(s) waiting, none dead-lettered."))
            }
        }
        return findings
    }

    /// The outbox (or, before first start, the nearest directory that will hold it) must be writable.
    private static func outboxFinding(_ c: GatehouseConfiguration) -> DoctorFinding {
        let outbox = c.outboxDirectory
        var existing = outbox
        while !FileManager.default.fileExists(atPath: existing.path), existing.pathComponents.count > 1 {
            existing.deleteLastPathComponent()
        }
        if FileManager.default.isWritableFile(atPath: existing.path) {
            return .ok("embedded.mail", "Mail goes to the outbox \(outbox.path) (writable); nothing is sent (set GATEHOUSE_MAIL for SMTP or SES).")
        }
        return .problem(
            "embedded.mail",
            "The outbox \(outbox.path) is not writable.",
            fix: "Make the data directory writable by the server's user, or point GATEHOUSE_DATA_DIR elsewhere."
        )
    }
}
