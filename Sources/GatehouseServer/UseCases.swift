import GatehouseCore

/// The use cases `buildApplication` wires, as the controllers and the package's tests reach them.
package struct UseCases: Sendable {
    package let passwords: PasswordAuthentication
    package let sessions: Sessions
    package let social: SocialSignIn
    package let phone: PhoneSignIn
    package let accounts: Accounts
    package let profiles: Profiles
    package let passkeys: Passkeys
    package let secondFactor: SecondFactor
    package let administration: Administration
    package let signInChoices: SignInChoices
    package let stepUp: StepUp
    package let limiter: RateLimiter
    package let domainEvents: DomainEvents
    package let accountSessions: AccountSessions
    package let emailChange: EmailChange
}
