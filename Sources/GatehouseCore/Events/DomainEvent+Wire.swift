import Foundation

extension DomainEvent {
    private struct Wire: Codable {
        var type: String
        var ids: [String]?
        var sub: String?
    }

    /// The event as a short JSON text, for the cross-instance channel.
    public var wire: String {
        let value: Wire
        switch self {
        case .sessionsEnded(let ids): value = Wire(type: "sessions_ended", ids: ids)
        case .sessionsChanged(let sub): value = Wire(type: "sessions_changed", sub: sub)
        case .userDeleted(let sub): value = Wire(type: "user_deleted", sub: sub)
        case .profileChanged(let sub): value = Wire(type: "profile_changed", sub: sub)
        case .signingKeysChanged: value = Wire(type: "signing_keys_changed")
        }
        return String(decoding: (try? JSONEncoder().encode(value)) ?? Data("{}".utf8), as: UTF8.self)
    }

    /// An event read from the cross-instance channel; nil for text that is not one.
    /// - Parameter wire: The JSON text.
    public init?(wire: String) {
        guard let value = try? JSONDecoder().decode(Wire.self, from: Data(wire.utf8)) else { return nil }
        switch (value.type, value.ids, value.sub) {
        case ("sessions_ended", let ids?, _): self = .sessionsEnded(ids: ids)
        case ("sessions_changed", _, let sub?): self = .sessionsChanged(sub: sub)
        case ("user_deleted", _, let sub?): self = .userDeleted(sub: sub)
        case ("profile_changed", _, let sub?): self = .profileChanged(sub: sub)
        case ("signing_keys_changed", _, _): self = .signingKeysChanged
        default: return nil
        }
    }
}
