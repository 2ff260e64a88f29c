import Foundation
import GatehouseCore
import GatehouseInfrastructure

/// The JSON shapes of CONTRACT.md, built from core values.
enum WireFormat {
    static func tokens(_ tokens: AuthTokens) -> [UInt8] {
        var out = JSONObjectWriter(capacity: tokens.idToken.utf8.count + tokens.accessToken.utf8.count + 256)
        out.string("id_token", tokens.idToken)
        out.string("access_token", tokens.accessToken)
        out.string("refresh_token", tokens.refreshToken)
        out.integer("expires_in", Int64(tokens.expiresIn))
        out.string("token_type", "Bearer")
        if let isNewUser = tokens.isNewUser { out.bool("is_new_user", isNewUser) }
        return out.finish()
    }

    static func codeDelivery(_ delivery: CodeDelivery) -> JSONValue {
        ["medium": .string(delivery.medium), "destination": .string(delivery.destination)]
    }

    static func signUp(_ result: SignUpResult) -> JSONValue {
        [
            "user_sub": .string(result.userSub),
            "user_confirmed": .bool(result.userConfirmed),
            "code_delivery": codeDelivery(result.codeDelivery),
        ]
    }

    static func profile(_ view: ProfileView) -> JSONValue {
        let p = view.profile
        return [
            "sub": .string(p.sub),
            "email": p.email.map(JSONValue.string) ?? .null,
            "email_verified": .bool(p.emailVerified),
            "full_name": p.fullName.map(JSONValue.string) ?? .null,
            "identities": .array(view.identities.map { ["provider": .string($0.provider), "linked_at": .string(timestamp($0.linkedAt))] }),
            "created_at": .string(timestamp(p.createdAt)),
            "updated_at": .string(timestamp(p.updatedAt)),
        ]
    }

    /// RFC 3339 in UTC, whole seconds (`2026-11-22T06:14:00Z`).
    static func timestamp(_ date: Date) -> String {
        var seconds = time_t(date.epochSeconds)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func two(_ n: Int32) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))T\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec))Z"
    }
}
