import Foundation

/// The ``TokenStore`` refused to read, write or delete the session (the Keychain before the first unlock
/// after a reboot, a full disk, an item that is not a session).
///
/// What the client did about it depends on ``operation``: after a failed `save` the new session is kept in
/// memory (the user stays signed in) and the write is retried on every later call; after a failed `clear`
/// the session has ended in memory and on the server, and the deletion is retried; after a failed `load`
/// nothing is known, so nothing is assumed (not even "signed out").
public struct StorageFailure: Error, Sendable, Equatable, CustomStringConvertible {
    /// What the client asked the store to do.
    public enum Operation: String, Sendable, Equatable {
        /// Reading the stored session.
        case load
        /// Writing a new session.
        case save
        /// Deleting the session.
        case clear
    }

    /// What failed.
    public var operation: Operation
    /// The store's error, described (no tokens: stores never put them in their errors).
    public var detail: String
    /// The Keychain's `OSStatus`, when the store is the Keychain.
    public var keychainStatus: Int32?

    /// A failure of `operation` with the store's `error`.
    ///
    /// - Parameters:
    ///   - operation: What the client asked the store to do.
    ///   - error: What the store threw.
    public init(_ operation: Operation, _ error: any Error) {
        self.operation = operation
        self.detail = String(describing: error)
        #if canImport(Security)
        self.keychainStatus = (error as? KeychainError)?.status
        #endif
    }

    /// A one-line account for logs.
    public var description: String { "The session store could not \(operation.rawValue): \(detail)" }
}
