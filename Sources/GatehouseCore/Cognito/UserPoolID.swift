import GatehouseInfrastructure

/// The embedded pool's Cognito pool id (`<region>_<id>`): `GATEHOUSE_POOL_ID`, or one generated on
/// the first start and kept in the database so every instance agrees; settled at start-up. The part
/// after `_` is the SRP "pool name", part of every verifier.
public final class UserPoolID: Sendable {
    private let stored = SetOnce<String>("the pool id")

    /// A pool id settled at start-up.
    public init() {}

    /// A known pool id.
    /// - Parameter id: `<region>_<id>`.
    public init(_ id: String) {
        stored.set(id)
    }

    /// The pool id.
    public var id: String { stored.value }

    /// The SRP pool name: the part after the first `_`.
    public var name: String { CognitoSRP.poolName(poolID: id) ?? id }

    /// Sets the id; only the first call has an effect.
    /// - Parameter id: `<region>_<id>`.
    public func settle(_ id: String) {
        stored.set(id)
    }

    /// Whether `id` has Cognito's form: a region-like prefix, `_`, and letters and digits.
    /// - Parameter id: A candidate pool id.
    /// - Returns: Whether Amplify and the AWS SDKs accept it.
    public static func isValid(_ id: String) -> Bool {
        id.utf8.count <= 55 && id.range(of: #"^[a-z]{2}(-[a-z]+)+-[0-9]+_[0-9A-Za-z]+$"#, options: .regularExpression) != nil
    }
}
