import Foundation
import Logging

/// The sign-in observer the server uses: counts every attempt in `metrics` and writes each refused
/// sign-in to the audit log (its method and reason class, never what was presented). Refusals by the
/// throttle are counted but not written, or one client could fill the log as fast as it can send;
/// `mfa_required` is a step, not a refusal; refresh refusals are the token endpoint's, not sign-ins.
public struct AuditedAuthEvents: AuthEventObserver {
    let metrics: any AuthEventObserver
    let store: any GatehouseStore
    let clock: any TimeSource
    let random: any RandomSource
    let logger: Logger

    /// An observer over `metrics`.
    /// - Parameters:
    ///   - metrics: Where attempts are counted.
    ///   - store: Where refusals are written.
    ///   - clock: The time source.
    ///   - random: Makes entry ids.
    ///   - logger: Where a failed audit write is reported (the refusal itself stands).
    public init(metrics: any AuthEventObserver, store: any GatehouseStore, clock: any TimeSource, random: any RandomSource, logger: Logger) {
        self.metrics = metrics
        self.store = store
        self.clock = clock
        self.random = random
        self.logger = logger
    }

    /// Counts the attempt.
    /// - Parameters:
    ///   - method: The sign-in method.
    ///   - outcome: The outcome word.
    public func signInAttempt(method: String, outcome: String) {
        metrics.signInAttempt(method: method, outcome: outcome)
    }

    /// Writes the refusal to the audit log, unless the throttle refused it or it was the second-factor step.
    /// - Parameters:
    ///   - method: The sign-in method.
    ///   - outcome: The refusal's reason class.
    public func signInRefused(method: String, outcome: String) async {
        guard method != "refresh", outcome != "throttled", outcome != "mfa_required" else { return }
        let entry = AuditEntry.make(.signInFailed, userID: nil, detail: method + ":" + outcome, origin: .current, at: clock.now(), random: random)
        do {
            try await store.write { tx in try await tx.appendAudit(entry) }
        } catch {
            logger.error("audit write failed", metadata: ["audit.event": "sign_in_failed", "error": .string(String(describing: error))])
        }
    }
}
