import Foundation
import Testing

@testable import Gatehouse

#if canImport(Observation)
import Observation

/// The model's second step: a sign-in answering `mfa_required` shows the code screen instead of an error, a wrong
/// code keeps it, the right one signs in, an expired step goes back to sign-in.
@Suite("AuthModel: the second factor's code screen", .timeLimit(.minutes(1)))
@MainActor
struct AuthModelSecondFactorTests {
    func model(expired: Bool = false) -> (AuthModel, StubTransport) {
        let transport = StubTransport { request in
            switch request.url!.path {
            case "/auth/signin":
                if request.jsonBody["password"] as? String != "pw" { return (401, [:], StubTransport.error("invalid_credentials")) }
                return (403, [:], SecondFactorTests.mfaRequired("v1.step"))
            case "/auth/mfa/verify":
                if expired { return (401, [:], StubTransport.error("invalid_grant", "This sign-in step expired or was used. Sign in again.")) }
                if request.jsonBody["code"] as? String != "123456" { return (400, [:], StubTransport.error("code_mismatch")) }
                return (200, [:], StubTransport.tokens("1"))
            case "/me": return (200, [:], StubTransport.json(AuthModelTests.profileJSON))
            case "/auth/signout": return (204, [:], Data())
            default: return (404, [:], StubTransport.error("not_found"))
            }
        }
        return (AuthModel(client: GatehouseClient(configuration: .init(baseURL: base), transport: transport)), transport)
    }

    @Test func aSignInThatNeedsACodeShowsTheCodeScreenThenSignsIn() async {
        let (model, transport) = model()
        await model.submitSecondFactor(code: "123456")
        #expect(model.errorMessage == "Sign in first." && transport.requests.isEmpty)
        await model.signIn(email: "a@example.com", password: "pw")
        #expect(model.needsSecondFactor && !model.isAuthenticated && !model.isLoading)
        #expect(model.errorMessage == nil && model.errorCode == .mfaRequired, "the code screen is the answer, not an error")

        await model.submitSecondFactor(code: "000000")
        #expect(model.needsSecondFactor && model.errorCode == .codeMismatch && model.errorMessage?.contains("code") == true)
        await model.submitSecondFactor(code: "123456")
        #expect(model.isAuthenticated && !model.needsSecondFactor && model.profile?.sub == "u1" && model.errorMessage == nil)
        #expect(transport.requests(to: "/auth/mfa/verify").last?.jsonBody as? [String: String] == ["mfa_token": "v1.step", "code": "123456"])
        #expect(model.client.currentSession?.signInMethod == .password)
    }

    @Test func anExpiredStepGoesBackToSignInAndBackForgetsIt() async {
        let (model, _) = model(expired: true)
        await model.signIn(email: "a@example.com", password: "pw")
        #expect(model.needsSecondFactor)
        await model.submitSecondFactor(code: "123456")
        #expect(!model.needsSecondFactor && !model.isAuthenticated && model.errorMessage == AuthModel.secondFactorExpired)

        await model.signIn(email: "a@example.com", password: "pw")
        #expect(model.needsSecondFactor)
        model.cancelSecondFactor()
        #expect(!model.needsSecondFactor && model.errorMessage == nil && model.errorCode == nil)
        await model.signIn(email: "a@example.com", password: "wrong")
        #expect(!model.needsSecondFactor && model.errorCode == .invalidCredentials && model.errorMessage == "Incorrect email or password.")
    }
}
#endif
