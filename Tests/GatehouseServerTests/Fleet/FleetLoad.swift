import Foundation
import Synchronization

/// Steady traffic through the balancer for the fault tests: each worker signs up a new address, reads
/// `/me` and rotates its own session's refresh token, in a loop, until stopped. Every answer is kept.
final class FleetLoad: Sendable {
    /// One answered request.
    struct Sample: Sendable {
        let kind: String
        let email: String?
        let reply: HTTPProbe.Reply
    }

    /// Where each worker's session stands: the tokens to use next, and the refresh token sent by a
    /// refresh that got no clear answer (to retry, as a client would).
    struct Chain: Sendable {
        var access: String
        var refresh: String
    }

    private let stopped = Atomic<Bool>(false)
    private let samples = Mutex<[Sample]>([])
    private let chains: Mutex<[Chain]>

    init(sessions: [(access: String, refresh: String)]) {
        chains = Mutex(sessions.map { Chain(access: $0.access, refresh: $0.refresh) })
    }

    var recorded: [Sample] { samples.withLock { $0 } }
    var sessions: [Chain] { chains.withLock { $0 } }

    func stop() { stopped.store(true, ordering: .relaxed) }

    /// Runs one worker per session until ``stop()``.
    func run(_ fleet: Fleet, tag: String) async {
        let count = chains.withLock { $0.count }
        await withTaskGroup(of: Void.self) { group in
            for worker in 0..<count {
                group.addTask { await self.work(fleet, worker: worker, tag: tag) }
            }
        }
    }

    private func work(_ fleet: Fleet, worker: Int, tag: String) async {
        var round = 0
        while !stopped.load(ordering: .relaxed) {
            round += 1
            let email = "\(tag)-\(worker)-\(round)@example.com"
            // Each sign-up from an address of its own: many users, not one client flooding.
            let client = "10.\(worker).\(round / 256 % 256).\(round % 256)"
            let signup = await fleet.send("POST", "/auth/signup", json: ["email": email, "password": Fleet.password], client: client)
            record(Sample(kind: "signup", email: email, reply: signup))
            let chain = chains.withLock { $0[worker] }
            let me = await fleet.send("GET", "/me", bearer: chain.access)
            record(Sample(kind: "me", email: nil, reply: me))
            let refreshed = await fleet.send("POST", "/auth/refresh", json: ["refresh_token": chain.refresh])
            record(Sample(kind: "refresh", email: nil, reply: refreshed))
            if refreshed.status == 200, let access = refreshed.string("access_token"), let refresh = refreshed.string("refresh_token") {
                chains.withLock { $0[worker] = Chain(access: access, refresh: refresh) }
            }
        }
    }

    private func record(_ sample: Sample) {
        samples.withLock { $0.append(sample) }
    }
}
