import Foundation

/// The statements available inside a transaction.
public protocol StoreTransaction: UserRepository, IdentityRepository, SessionRepository, CodeRepository,
    ProfileRepository, RateLimitRepository, SettingsRepository, SocialRepository, SubjectRepository, MessageQueueRepository,
    SRPChallengeRepository, PasskeyRepository, MFARepository, AuditRepository, AdminKeyRepository, WebhookRepository, AppleNotificationRepository,
    Sendable
{}
