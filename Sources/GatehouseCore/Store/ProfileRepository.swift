import Foundation

/// The app's own profiles, keyed by the identity provider's `sub` and created on first use.
public protocol ProfileRepository: Sendable {
    func profile(sub: String) async throws -> ProfileRecord?
    /// The profiles whose email is `email`, compared without case (for operators).
    func profiles(email: String) async throws -> [ProfileRecord]
    /// Inserts `profile` unless one exists for its `sub`; returns the stored profile either way.
    func insertProfileIfAbsent(_ profile: ProfileRecord) async throws -> ProfileRecord
    func updateProfile(_ profile: ProfileRecord) async throws
    func deleteProfile(sub: String) async throws
}
