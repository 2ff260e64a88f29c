import GatehouseInfrastructure

/// The client data a WebAuthn response carries (`clientDataJSON`, §5.8.1): the ceremony type, the
/// challenge as the authenticator saw it, and the origin the browser or platform vouches for.
struct PasskeyClientData: Sendable {
    let type: String
    let challenge: [UInt8]
    let origin: String
    let crossOrigin: Bool

    init(_ raw: [UInt8]) throws(GatehouseError) {
        let refused = GatehouseError.invalidRequest("'clientDataJSON' is not WebAuthn client data.")
        guard raw.count <= 4096, case .object(let o)? = try? StrictJSONParser(maxDepth: 4).parse(raw),
            let type = o["type"]?.stringValue, let challenge = o["challenge"]?.stringValue.flatMap(Base64URL.decode),
            let origin = o["origin"]?.stringValue
        else { throw refused }
        self.type = type
        self.challenge = challenge
        self.origin = origin
        if case .bool(true)? = o["crossOrigin"] { crossOrigin = true } else { crossOrigin = false }
    }
}
