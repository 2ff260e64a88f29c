import Crypto
import Foundation
import GatehouseCore
import GatehouseInfrastructure

/// What an attacker holding one refresh token could compute offline when successors were an HMAC
/// keyed by the token itself (the defect the server-held ``RefreshSuccessorKey`` fixes). Tests walk
/// this chain to show it leads nowhere.
public enum RefreshChainAttack {
    /// The successor the old, keyless derivation gave `token`.
    public static func successor(of token: String) -> String {
        let mac = HMAC<SHA256>.authenticationCode(for: Data("gatehouse/refresh/successor/v1".utf8), using: SymmetricKey(data: Data(token.utf8)))
        return RefreshTokenCodec.prefix + Base64URL.encode(Array(mac))
    }
}
