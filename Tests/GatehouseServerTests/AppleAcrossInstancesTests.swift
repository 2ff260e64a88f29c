import Foundation
import GatehouseCore
import GatehouseTesting
import HTTPTypes
import HummingbirdTesting
import Testing

/// Issue 14, point 2: the Apple web flow's single-use checks hold when the racing requests are spread
/// over two instances of one deployment (one PostgreSQL database, one master key): a `state` is accepted
/// once, and a hand-off code is redeemed once.
@Suite("Social: Apple web flow single use across instances (PostgreSQL)", .tags(.integration), .enabled(if: TestKind.runs("integration")))
struct AppleAcrossInstancesTests {
    typealias Flow = AppleWebFlowTests

    /// Two social instances on one fresh PostgreSQL schema, with one master key.
    static func twoInstances(_ issuer: FakeIssuer) async throws -> (TestApp, TestApp) {
        let url = TestDatabase.postgres.freshURL().url
        var apps: [TestApp] = []
        for _ in 0..<2 {
            let (app, _) = try await TestApp.social(issuer: issuer, database: .postgres) { configuration in
                configuration.masterKey = CrossInstanceInvalidationTests.masterKey
                configuration.databaseURL = url
            }
            apps.append(app)
        }
        return (apps[0], apps[1])
    }

    @Test func aStateIsAcceptedOnceWhicheverInstancesTheCallbacksReach() async throws {
        guard TestDatabase.available.contains(.postgres) else { return }
        try await FakeIssuer.run { issuer in
            let (first, second) = try await Self.twoInstances(issuer)
            try await first.router { a in
                try await second.router { b in
                    let (_, query, cookie) = try await Flow.authorize(a, Flow.PKCE())
                    let answer = AppleWebStateTests.appleAnswer(issuer, query, subject: "a-fleet-race")
                    let outcomes = try await withThrowingTaskGroup(of: String.self) { group in
                        for index in 0..<8 {
                            let client: any TestClientProtocol = index % 2 == 0 ? a : b
                            group.addTask {
                                let target = Flow.target(try await Flow.callback(client, answer, cookie: cookie))
                                return Flow.value(target, "code") != nil ? "code" : Flow.value(target, "error") ?? "?"
                            }
                        }
                        return try await group.reduce(into: [String]()) { $0.append($1) }
                    }
                    #expect(outcomes.filter { $0 == "code" }.count == 1, "\(outcomes)")
                    #expect(outcomes.filter { $0 == "invalid_state" }.count == 7, "\(outcomes)")
                    #expect(issuer.recorded.tokenRequests.count == 1, "Apple's code was redeemed once")
                }
            }
        }
    }

    @Test func aHandoffCodeIsRedeemedOnceWhicheverInstancesTheRequestsReach() async throws {
        guard TestDatabase.available.contains(.postgres) else { return }
        try await FakeIssuer.run { issuer in
            let (first, second) = try await Self.twoInstances(issuer)
            try await first.router { a in
                try await second.router { b in
                    let pkce = Flow.PKCE()
                    let (_, query, cookie) = try await Flow.authorize(a, pkce)
                    let answer = AppleWebStateTests.appleAnswer(issuer, query, subject: "a-handoff-race")
                    let code = try #require(Flow.value(Flow.target(try await Flow.callback(b, answer, cookie: cookie)), "code"))
                    let statuses = try await withThrowingTaskGroup(of: HTTPResponse.Status.self) { group in
                        for index in 0..<8 {
                            let client: any TestClientProtocol = index % 2 == 0 ? a : b
                            group.addTask {
                                try await client.send(
                                    .post,
                                    "/auth/handoff",
                                    json: ["code": .string(code), "code_verifier": .string(pkce.verifier)]
                                ).status
                            }
                        }
                        return try await group.reduce(into: [HTTPResponse.Status]()) { $0.append($1) }
                    }
                    #expect(statuses.filter { $0 == .ok }.count == 1, "\(statuses)")
                    #expect(statuses.filter { $0 != .ok }.allSatisfy { $0 == .badRequest || $0 == .unauthorized }, "\(statuses)")
                }
            }
        }
    }
}
