import Foundation
import GatehouseCore

/// Signing keys generated once per test process (RSA generation is slow) and shared by tests that
/// need "fixed keys".
public enum FixedKeys {
    public static let idKey: SigningKey = try! SigningKey.generate(use: .idToken, kid: "test-id-1", now: Date(timeIntervalSince1970: 1_700_000_000))
    public static let accessKey: SigningKey = try! SigningKey.generate(
        use: .accessToken,
        kid: "test-access-1",
        now: Date(timeIntervalSince1970: 1_700_000_000)
    )
    /// A key nobody trusts, for forged tokens.
    public static let foreignKey: SigningKey = try! SigningKey.generate(
        use: .accessToken,
        kid: "test-access-1",
        now: Date(timeIntervalSince1970: 1_700_000_000)
    )

    public static func keyring() -> Keyring {
        Keyring(try! Keyring.makeSnapshot(keys: [idKey, accessKey], now: Date(timeIntervalSince1970: 1_700_000_000)))
    }
}
