import Foundation
import GatehouseCore
import GatehouseInfrastructure

/// The admin API's JSON shapes (described in openapi.yaml under `/admin/`).
enum AdminRendering {
    static func time(_ date: Date?) -> JSONValue {
        date.map { .string(ContractTimestamp.string($0)) } ?? .null
    }

    static func optional(_ text: String?) -> JSONValue {
        text.map(JSONValue.string) ?? .null
    }

    /// A user in a list, and the head of one user's details.
    static func user(_ user: UserRecord) -> [String: JSONValue] {
        [
            "sub": .string(user.id), "email": optional(user.email), "email_verified": .bool(user.emailVerified),
            "phone_number": optional(user.phone), "name": optional(user.name), "confirmed": .bool(user.confirmed),
            "disabled": .bool(user.disabledAt != nil), "disabled_at": time(user.disabledAt), "created_at": time(user.createdAt),
            "updated_at": time(user.updatedAt),
        ]
    }

    static func details(_ details: AdminUserDetails) -> JSONValue {
        var fields = user(details.user)
        fields["identities"] = .array(details.identities.map(identity))
        fields["sessions"] = .object([
            "active": .number(Double(details.activeSessionIDs.count)), "ids": .array(details.activeSessionIDs.map(JSONValue.string)),
        ])
        fields["passkeys"] = .array(details.passkeys.map(PasskeyController.render))
        fields["mfa"] = .object(["totp": .bool(details.mfaEnabled)])
        fields["has_profile"] = .bool(details.profile != nil)
        fields["is_superuser"] = .bool(details.profile?.isSuperuser ?? false)
        return .object(fields)
    }

    /// A linked identity: its provider and link time, and for Apple the relay flags when known.
    static func identity(_ identity: IdentityRecord) -> JSONValue {
        var fields: [String: JSONValue] = ["provider": .string(identity.provider), "linked_at": time(identity.linkedAt)]
        if let flag = identity.isPrivateEmail { fields["is_private_email"] = .bool(flag) }
        if let flag = identity.emailForwarding { fields["email_forwarding"] = .bool(flag) }
        return .object(fields)
    }

    static func entry(_ entry: AuditEntry) -> JSONValue {
        .object([
            "id": .string(entry.id), "at": .string(ContractTimestamp.milliseconds(entry.at)), "event": .string(entry.event.rawValue),
            "user_id": optional(entry.userID), "actor": .string(entry.actor), "detail": optional(entry.detail),
            "client_address": optional(entry.clientAddress), "user_agent": optional(entry.userAgent), "request_id": optional(entry.requestID),
        ])
    }
}
