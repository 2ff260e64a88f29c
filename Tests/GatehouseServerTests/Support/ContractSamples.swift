import Foundation
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

    /// The request types and the operations whose JSON body they decode.
    static let requestTypes: [(path: String, method: String, fields: [ContractField])] = [
        ("/auth/signup", "post", SignUpRequest.fields), ("/auth/confirm", "post", EmailCodeRequest.fields),
        ("/auth/resend-code", "post", EmailRequest.fields), ("/auth/signin", "post", SignInRequest.fields),
        ("/auth/refresh", "post", RefreshTokenRequest.fields), ("/auth/signout", "post", RefreshTokenRequest.fields),
        ("/auth/password/forgot", "post", EmailRequest.fields), ("/auth/password/reset", "post", ResetPasswordRequest.fields),
        ("/auth/password/change", "post", ChangePasswordRequest.fields), ("/auth/google", "post", GoogleSignInRequest.fields),
        ("/auth/apple", "post", AppleSignInRequest.fields), ("/auth/handoff", "post", HandoffRequest.fields),
        ("/auth/apple/notifications", "post", AppleNotificationRequest.fields),
        ("/me", "patch", ProfileUpdateRequest.fields), ("/api/v1/auth/apple/signin", "post", CompatAppleSignInRequest.fields),
        ("/api/v1/auth/google/signin", "post", CompatGoogleSignInRequest.fields), ("/api/v1/auth/signup", "post", SignUpRequest.fields),
        ("/api/v1/auth/signin", "post", SignInRequest.fields), ("/api/v1/auth/refresh", "post", RefreshTokenRequest.fields),
        ("/auth/phone/send", "post", PhoneRequest.fields), ("/auth/phone/verify", "post", PhoneCodeRequest.fields),
        ("/me/phone", "post", AddPhoneRequest.fields), ("/auth/mfa/verify", "post", MFAVerifyRequest.fields),
        ("/me/mfa/totp/verify", "post", MFACodeRequest.fields), ("/me/mfa/totp", "delete", MFACodeRequest.fields),
        ("/me/mfa/recovery-codes", "post", MFACodeRequest.fields), ("/me", "delete", StepUpRequest.fields),
        ("/me/phone/verify", "post", PhoneCodeRequest.fields),
        ("/me/email", "post", ChangeEmailRequest.fields), ("/me/email/verify", "post", CodeRequest.fields),
        ("/api/v1/auth/otp/send", "post", PhoneRequest.fields), ("/api/v1/auth/otp/verify", "post", CompatOTPVerifyRequest.fields),
        ("/admin/users", "post", AdminCreateUserRequest.fields), ("/admin/users/{sub}", "patch", AdminUpdateUserRequest.fields),
        ("/admin/webhooks", "post", AdminCreateWebhookRequest.fields),
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
                    "name": .string(field.name), "required": .bool(field.presence == .required), "nullable": .bool(field.presence == .nullable),
                    "max_length": field.maxLength.map { .number(Double($0)) } ?? .null,
                ]
            }
            return ["path": .string(type.path), "method": .string(type.method), "fields": .array(fields)]
        }
        let routes = served.map { route -> JSONValue in ["path": .string(route.path), "method": .string(route.method.lowercased())] }
        return ["samples": .array(samples), "requests": .array(requests), "served": .array(routes)]
    }
}
