import Foundation

/// A write broke a uniqueness rule (an email already owned, an identity already linked).
public struct StoreConflict: Error, Sendable, CustomStringConvertible {
    /// Which uniqueness rule broke, in words (`user email`, `session id`, `hand-off code`); for logs.
    public let constraint: String
    /// A conflict on `constraint`, thrown by a store backend when the database reports a unique violation.
    /// - Parameter constraint: The rule that broke, in words.
    public init(constraint: String) { self.constraint = constraint }
    /// `unique constraint violated: <constraint>`, for logs.
    public var description: String { "unique constraint violated: \(constraint)" }
}
