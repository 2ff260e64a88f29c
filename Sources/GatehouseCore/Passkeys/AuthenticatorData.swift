/// WebAuthn's authenticator data (§6.1): the RP id hash, the flags, the signature counter and, at
/// registration, the attested credential (AAGUID, credential id, COSE public key).
struct AuthenticatorData: Sendable {
    struct Malformed: Error, CustomStringConvertible {
        let description: String
    }

    /// The attested credential of a registration.
    struct AttestedCredential: Sendable {
        var aaguid: [UInt8]
        var credentialID: [UInt8]
        var publicKey: CBORValue
    }

    let raw: [UInt8]
    let rpIDHash: [UInt8]
    let flags: UInt8
    let signCount: UInt32
    let attestedCredential: AttestedCredential?

    var userPresent: Bool { flags & 0x01 != 0 }
    var userVerified: Bool { flags & 0x04 != 0 }
    /// Backup eligible (a synced passkey may be).
    var backupEligible: Bool { flags & 0x08 != 0 }
    /// Backed up (synced) now.
    var backedUp: Bool { flags & 0x10 != 0 }

    init(_ bytes: [UInt8]) throws(Malformed) {
        guard bytes.count >= 37 else { throw Malformed(description: "shorter than 37 bytes") }
        raw = bytes
        rpIDHash = Array(bytes[0..<32])
        flags = bytes[32]
        signCount = bytes[33..<37].reduce(0) { $0 << 8 | UInt32($1) }
        let hasAttested = flags & 0x40 != 0
        let hasExtensions = flags & 0x80 != 0
        guard flags & 0x10 == 0 || flags & 0x08 != 0 else { throw Malformed(description: "backed up without being backup eligible") }
        var offset = 37
        if hasAttested {
            guard bytes.count >= offset + 18 else { throw Malformed(description: "attested credential data truncated") }
            let aaguid = Array(bytes[offset..<offset + 16])
            let length = Int(bytes[offset + 16]) << 8 | Int(bytes[offset + 17])
            offset += 18
            guard length >= 16, length <= 1023, bytes.count >= offset + length else { throw Malformed(description: "credential id length") }
            let credentialID = Array(bytes[offset..<offset + length])
            offset += length
            var decoder = CBORDecoder(bytes, offset: offset)
            let key: CBORValue
            do { key = try decoder.decode() } catch { throw Malformed(description: "public key: \(error)") }
            offset = decoder.offset
            attestedCredential = AttestedCredential(aaguid: aaguid, credentialID: credentialID, publicKey: key)
        } else {
            attestedCredential = nil
        }
        if hasExtensions {
            var decoder = CBORDecoder(bytes, offset: offset)
            do { _ = try decoder.decode() } catch { throw Malformed(description: "extensions: \(error)") }
            offset = decoder.offset
        }
        guard offset == bytes.count else { throw Malformed(description: "bytes after the authenticator data") }
    }
}
