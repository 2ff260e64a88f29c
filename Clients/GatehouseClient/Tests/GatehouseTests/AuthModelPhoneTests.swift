import Foundation
import Testing

@testable import Gatehouse

#if canImport(Observation)
import Observation

@Suite("AuthModel: phone sign-in and adding a number", .timeLimit(.minutes(1)))
@MainActor
struct AuthModelPhoneTests {
    nonisolated static let number = "+14155550123"

    func model() -> (AuthModel, StubTransport) {
        let transport = StubTransport { request in
            let delivery: [String: Any] = ["code_delivery": ["medium": "SMS", "destination": "+1*******0123"]]
            let code = request.jsonBody["code"] as? String
            switch request.url!.path {
            case "/auth/phone/send", "/me/phone":
                if request.jsonBody["phone"] as? String == "+33612345678" {
                    return (400, [:], StubTransport.error("invalid_request", "Numbers in this country cannot receive codes."))
                }
                return (200, [:], StubTransport.json(delivery))
            case "/auth/phone/verify":
                if code != "123456" { return (400, [:], StubTransport.error("code_mismatch")) }
                return (200, [:], PhoneTests.phoneTokens(isNewUser: true))
            case "/me/phone/verify":
                if code == "999999" { return (409, [:], StubTransport.error("conflict", "This number belongs to another account.")) }
                return (200, [:], StubTransport.json(PhoneTests.profileJSON(phone: Self.number, verified: true)))
            case "/me": return (200, [:], StubTransport.json(PhoneTests.profileJSON()))
            default: return (404, [:], StubTransport.error("not_found"))
            }
        }
        return (AuthModel(client: GatehouseClient(configuration: .init(baseURL: base), transport: transport)), transport)
    }

    @Test func sendTheCodeThenSignIn() async {
        let (model, transport) = model()
        await model.signInWithPhone(code: "123456")
        #expect(model.errorMessage == "Enter your phone number first." && transport.requests.isEmpty)
        await model.sendPhoneCode(to: "+33612345678")
        #expect(model.errorCode == .invalidRequest && model.errorMessage == "Numbers in this country cannot receive codes.")
        #expect(model.pendingPhone == nil)
        await model.sendPhoneCode(to: Self.number)
        #expect(model.pendingPhone == Self.number && model.phoneCodeDelivery?.destination == "+1*******0123" && model.errorMessage == nil)
        await model.signInWithPhone(code: "000000")
        #expect(model.errorCode == .codeMismatch && !model.isAuthenticated && model.pendingPhone == Self.number)
        await model.signInWithPhone(code: "123456")
        #expect(model.isAuthenticated && model.user?.phone == Self.number && model.profile?.sub == "u1" && !model.isLoading)
        #expect(model.pendingPhone == nil && model.phoneCodeDelivery == nil && model.errorMessage == nil)
        #expect(transport.requests(to: "/auth/phone/verify").last?.jsonBody as? [String: String] == ["phone": Self.number, "code": "123456"])
    }

    @Test func addANumberToTheAccount() async {
        let (model, _) = model()
        await model.sendPhoneCode(to: Self.number)
        await model.signInWithPhone(code: "123456")
        #expect(model.profile?.phone == nil)
        await model.addPhone(Self.number)
        #expect(model.pendingPhone == Self.number)
        #expect(await model.verifyPhone(code: "999999") == false)
        #expect(model.errorCode == .conflict && model.errorMessage == "This number belongs to another account." && model.isAuthenticated)
        #expect(await model.verifyPhone(code: "123456"))
        #expect(model.profile?.phone == Self.number && model.profile?.phoneVerified == true && model.pendingPhone == nil)
        await model.addPhone(Self.number)
        model.cancelPhone()
        #expect(model.pendingPhone == nil && model.errorMessage == nil)
        #expect(await model.verifyPhone(code: "123456") == false && model.errorMessage == "Enter your phone number first.")
    }
}
#endif
