/// Whoever holds the users — the embedded pool or Amazon Cognito — as the use cases see it: one
/// strategy per backing store, split by concern. A provider talks only to its own backing; the
/// policy around each call (input rules, sign-in metrics, cache invalidation) is the use cases'.
public typealias IdentityProvider = PasswordStrategy & SessionStrategy & SocialStrategy & AccountStrategy & PhoneStrategy
