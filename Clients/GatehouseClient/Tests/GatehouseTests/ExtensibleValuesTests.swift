import Foundation
import Testing

@testable import Gatehouse

/// `ErrorCode` and `AuthEvent` are structs with known values, not closed enums, so a value a later SDK version
/// (or server) adds lands in an app's `default:` instead of breaking the app's build. Much of this is checked
/// by compiling: the switches below need their `default`, and the generic helper needs `RawRepresentable`.
@Suite("Extensible values: error codes and auth events")
struct ExtensibleValuesTests {
    /// What an app writes over codes: known ones by name, then a `default`.
    static func reaction(to code: ErrorCode) -> String {
        switch code {
        case .invalidCredentials: "retype"
        case .tooManyRequests, .upstreamUnavailable: "wait"
        default: "generic"
        }
    }

    /// What an app writes over events.
    static func reaction(to event: AuthEvent) -> String {
        switch event {
        case .initialSession, .signedIn, .tokenRefreshed: "show"
        case .signedOut, .userDeleted, .sessionExpired: "sign in"
        default: "ignore"
        }
    }

    /// Apps that store or log values go through `RawRepresentable`.
    static func roundTrip<Value: RawRepresentable & Hashable & Sendable>(_ value: Value) -> Value? {
        Value(rawValue: value.rawValue)
    }

    @Test func anUnknownServerCodeRoundTripsAndLandsInDefault() async throws {
        let unknown = ErrorCode(rawValue: "step_up_required")
        #expect(unknown.rawValue == "step_up_required" && Self.roundTrip(unknown) == unknown)
        #expect(unknown == .other("step_up_required") && !unknown.isKnown && ErrorCode.invalidGrant.isKnown)
        #expect(Self.reaction(to: unknown) == "generic" && Self.reaction(to: .tooManyRequests) == "wait")
        #expect(ErrorCode(rawValue: "invalid_grant") == .invalidGrant && "\(ErrorCode.invalidGrant)" == "invalid_grant")
        #expect(ErrorCode(rawValue: "reauthentication_required") == .reauthenticationRequired, "the contract's newest code is known")
        let transport = StubTransport { _ in (400, [:], StubTransport.error("step_up_required", "Sign in again.")) }
        let client = GatehouseClient(configuration: .init(baseURL: base), transport: transport)
        await expectError(unknown) { try await client.confirmSignUp(email: "a@example.com", code: "1") }
    }

    @Test func anAuthEventThisVersionDoesNotKnowLandsInDefault() {
        let later = AuthEvent(rawValue: "passwordRecovery")
        #expect(Self.reaction(to: later) == "ignore" && Self.roundTrip(later) == later)
        #expect(Self.reaction(to: .sessionExpired) == "sign in" && AuthEvent(rawValue: "signedIn") == .signedIn)
        #expect("\(AuthEvent.tokenRefreshed)" == "tokenRefreshed")
    }
}
