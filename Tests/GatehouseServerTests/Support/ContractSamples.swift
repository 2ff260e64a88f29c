import Foundation
import GatehouseAPI
import GatehouseCore
import GatehouseInfrastructure
import GatehouseServer
import HTTPTypes
import HummingbirdTesting

/// What the contract tests collect: every exchange they had with the real app (the documented
/// path template, the method, the status, the content type and the body), and the request types'
/// field declarations, for `Scripts/validate_contract.py` to check against `openapi.yaml`.
actor ContractSamples {
    struct Sample: Sendable {
        let path: String
        let method: String
        let status: Int
        let contentType: String
        let body: String
    }

    private(set) var samples: [Sample] = []

    /// Sends a request and records the exchange under the documented `template` (defaults to the path without its query).
    func send(
        _ client: any TestClientProtocol,
        _ method: HTTPRequest.Method,
        _ path: String,
        template: String? = nil,
        json: JSONValue? = nil,
        raw: String? = nil,
        contentType: String? = "application/json",
        bearer: String? = nil,
        headers: HTTPFields = [:]
    ) async throws -> Reply {
        let reply = try await client.send(method, path, json: json, raw: raw, contentType: contentType, bearer: bearer, headers: headers)
        let documented = template ?? String(path.split(separator: "?", maxSplits: 1).first ?? "")
        samples.append(
            Sample(
                path: documented,
                method: method.rawValue.lowercased(),
                status: Int(reply.status.code),
                contentType: reply.headers[.contentType] ?? "",
                body: reply.bodyText
            )
        )
        return reply
    }

    /// The types the routes decode their JSON bodies into (the generated ones, and the two PATCH bodies
    /// decoded by hand), by operation, with their members as the generated `RequestSchemas` declare them.
    static let requestTypes: [(path: String, method: String, fields: [ContractField])] = [
        ("/auth/signup", "post", Operations.SignUp.Input.Body.JsonPayload.fields),
        ("/auth/confirm", "post", Operations.ConfirmSignUp.Input.Body.JsonPayload.fields),
        ("/auth/resend-code", "post", Components.RequestBodies.EmailOnly.JsonPayload.fields),
        ("/auth/signin", "post", Operations.SignIn.Input.Body.JsonPayload.fields),
        ("/auth/refresh", "post", Components.RequestBodies.RefreshToken.JsonPayload.fields),
        ("/auth/signout", "post", Components.RequestBodies.RefreshToken.JsonPayload.fields),
        ("/auth/password/forgot", "post", Components.RequestBodies.EmailOnly.JsonPayload.fields),
        ("/auth/password/reset", "post", Operations.ResetPassword.Input.Body.JsonPayload.fields),
        ("/auth/password/change", "post", Operations.ChangePassword.Input.Body.JsonPayload.fields),
        ("/auth/google", "post", Operations.SignInWithGoogle.Input.Body.JsonPayload.fields),
        ("/auth/apple", "post", Operations.SignInWithApple.Input.Body.JsonPayload.fields),
        ("/auth/handoff", "post", Operations.RedeemHandoff.Input.Body.JsonPayload.fields),
        ("/auth/apple/notifications", "post", Operations.ReceiveAppleNotification.Input.Body.JsonPayload.fields),
        ("/me", "patch", ProfileUpdateRequest.fields),
        ("/api/v1/auth/apple/signin", "post", Operations.CompatSignInWithApple.Input.Body.JsonPayload.fields),
        ("/api/v1/auth/google/signin", "post", Operations.CompatSignInWithGoogle.Input.Body.JsonPayload.fields),
        ("/api/v1/auth/signup", "post", Operations.CompatSignUp.Input.Body.JsonPayload.fields),
        ("/api/v1/auth/signin", "post", Operations.CompatSignIn.Input.Body.JsonPayload.fields),
        ("/api/v1/auth/refresh", "post", Components.RequestBodies.RefreshToken.JsonPayload.fields),
        ("/auth/phone/send", "post", Components.RequestBodies.PhoneOnly.JsonPayload.fields),
        ("/auth/phone/verify", "post", Components.RequestBodies.PhoneCode.JsonPayload.fields),
        ("/me/phone", "post", Operations.AddPhone.Input.Body.JsonPayload.fields),
        ("/auth/mfa/verify", "post", Operations.VerifySecondFactor.Input.Body.JsonPayload.fields),
        ("/me/mfa/totp/verify", "post", Components.RequestBodies.MFACode.JsonPayload.fields),
        ("/me/mfa/totp", "delete", Components.RequestBodies.MFACode.JsonPayload.fields),
        ("/me/mfa/recovery-codes", "post", Components.RequestBodies.MFACode.JsonPayload.fields),
        ("/me", "delete", Operations.DeleteAccount.Input.Body.JsonPayload.fields),
        ("/me/phone/verify", "post", Components.RequestBodies.PhoneCode.JsonPayload.fields),
        ("/me/email", "post", Operations.ChangeEmail.Input.Body.JsonPayload.fields),
        ("/me/email/verify", "post", Operations.VerifyEmailChange.Input.Body.JsonPayload.fields),
        ("/api/v1/auth/otp/send", "post", Components.RequestBodies.PhoneOnly.JsonPayload.fields),
        ("/api/v1/auth/otp/verify", "post", Operations.CompatVerifyPhoneCode.Input.Body.JsonPayload.fields),
        ("/admin/users", "post", Operations.CreateAdminUser.Input.Body.JsonPayload.fields),
        ("/admin/users/{sub}", "patch", AdminUpdateUserRequest.fields),
        ("/admin/webhooks", "post", Operations.AddWebhook.Input.Body.JsonPayload.fields),
        ("/auth/passkey/options", "post", Operations.PasskeySignInOptions.Input.Body.JsonPayload.fields),
        ("/auth/passkey/signin", "post", Operations.SignInWithPasskey.Input.Body.JsonPayload.fields),
        ("/me/passkeys", "post", Operations.RegisterPasskey.Input.Body.JsonPayload.fields),
    ]

    /// Everything as one JSON document.
    func document(served: [(path: String, method: String)]) -> JSONValue {
        let samples = samples.map { sample -> JSONValue in
            [
                "path": .string(sample.path), "method": .string(sample.method), "status": .number(Double(sample.status)),
                "content_type": .string(sample.contentType), "body": .string(sample.body),
            ]
        }
        let requests = Self.requestTypes.map { type -> JSONValue in
            let fields = type.fields.map { field -> JSONValue in
                [
                    "name": .string(field.name), "required": .bool(field.required), "nullable": .bool(field.nullable),
                    "string": .bool(field.kind == .string), "min_length": field.minLength.map { .number(Double($0)) } ?? .null,
                    "max_length": field.maxLength.map { .number(Double($0)) } ?? .null, "pattern": field.pattern.map { .string($0) } ?? .null,
                ]
            }
            return ["path": .string(type.path), "method": .string(type.method), "fields": .array(fields)]
        }
        let routes = served.map { route -> JSONValue in ["path": .string(route.path), "method": .string(route.method.lowercased())] }
        return ["samples": .array(samples), "requests": .array(requests), "served": .array(routes)]
    }
}
