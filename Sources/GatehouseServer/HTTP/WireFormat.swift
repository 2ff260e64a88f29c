import Foundation
import GatehouseCore

/// The JSON shapes of CONTRACT.md, built from core values.
enum WireFormat {
    static func tokens(_ tokens: AuthTokens) -> JSONValue {
        var object: [String: JSONValue] = [
            "id_token": .string(tokens.idToken),
            "access_token": .string(tokens.accessToken),
            "refresh_token": .string(tokens.refreshToken),
            "expires_in": .number(Double(tokens.expiresIn)),
            "token_type": "Bearer",
        ]
        if let isNewUser = tokens.isNewUser { object["is_new_user"] = .bool(isNewUser) }
        return .object(object)
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

    static func timestamp(_ date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: false, timeZone: TimeZone(identifier: "UTC")!))
    }
}
