import GatehouseAPI
import GatehouseCore

/// A passkey as `GET /me/passkeys`, `POST /me/passkeys` and the admin API's user details show it.
extension Components.Schemas.Passkey {
    /// The wire form of a stored passkey (never its public key or counter).
    /// - Parameter passkey: The stored record.
    init(_ passkey: PasskeyRecord) {
        self.init(
            id: passkey.id,
            name: passkey.name,
            createdAt: passkey.createdAt,
            lastUsedAt: passkey.lastUsedAt,
            transports: passkey.transports,
            backedUp: passkey.backedUp,
            flagged: passkey.flaggedAt != nil
        )
    }
}
