import Foundation

/// For users kept by another provider (Cognito): when their tokens stopped counting, whether they
/// were deleted, leases that serialise work on one user across instances, and the sealed password
/// social sign-in uses for them.
public protocol SubjectRepository: Sendable {
    func subjectRevocation(sub: String) async throws -> SubjectRevocation?
    /// Moves the subject's cut-off forward to `revokedBefore` (never back) and, with `deletedAt`,
    /// marks it deleted for good.
    func recordSubjectRevocation(sub: String, revokedBefore: Date, deletedAt: Date?) async throws
    /// Takes the lease `name` for `holder` until `until` unless another holder has it unexpired at `now`.
    func acquireLease(name: String, holder: String, until: Date, now: Date) async throws -> Bool
    func releaseLease(name: String, holder: String) async throws

    /// The sealed random password Gatehouse keeps for the Cognito user `sub`, if it set one.
    func cognitoPassword(sub: String) async throws -> CognitoPasswordRecord?
    /// Stores (or replaces) the user's sealed password.
    func upsertCognitoPassword(_ record: CognitoPasswordRecord) async throws
    func deleteCognitoPassword(sub: String) async throws
}
