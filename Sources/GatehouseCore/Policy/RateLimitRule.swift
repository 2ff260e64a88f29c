import Foundation

/// One rate-limit rule: how many attempts a bucket gets in a window, and how long it is blocked after.
///
/// Failure rules (sign-in, codes) let `freeAttempts` failures through per window, then block for
/// `baseBlock`, doubling with each further failure up to `maxBlock` — back-off, never a permanent lock.
/// Quota rules (mail) allow `freeAttempts` uses per window and answer 429 until the window ends.
public struct RateLimitRule: Sendable, Equatable {
    /// The rule's id (`signin.account`, `mail.address`, …): the prefix of its bucket keys and a part of
    /// their keyed hash, so two rules never share a counter.
    public var name: String
    /// Failures (or uses) allowed per window before the rule bites; at least 1.
    public var freeAttempts: Int
    /// The counting window in seconds; at least 1.
    public var window: TimeInterval
    /// Seconds the first failure past the free ones blocks for; each further failure doubles it.
    public var baseBlock: TimeInterval
    /// The longest block in seconds, so back-off never becomes a lock-out; at least `baseBlock`.
    public var maxBlock: TimeInterval

    /// A rule; out-of-range values are clamped rather than refused.
    /// - Parameters:
    ///   - name: The rule's id; must be unique among the rules.
    ///   - freeAttempts: Attempts allowed per window (raised to 1).
    ///   - window: The window in seconds (raised to 1).
    ///   - baseBlock: The first block in seconds (raised to 0).
    ///   - maxBlock: The longest block in seconds (raised to `baseBlock`).
    public init(name: String, freeAttempts: Int, window: TimeInterval, baseBlock: TimeInterval = 1, maxBlock: TimeInterval = 900) {
        self.name = name
        self.freeAttempts = max(1, freeAttempts)
        self.window = max(1, window)
        self.baseBlock = max(0, baseBlock)
        self.maxBlock = max(baseBlock, maxBlock)
    }

    /// How long the `count`-th failure in a window blocks the bucket.
    /// - Parameter count: Failures in the window, this one included.
    /// - Returns: `nil` within the free attempts; otherwise `baseBlock` doubled per failure past the first
    ///   blocking one, capped at `maxBlock`.
    func block(afterFailures count: Int) -> TimeInterval? {
        guard count > freeAttempts else { return nil }
        let exponent = min(count - freeAttempts - 1, 30)
        return min(maxBlock, baseBlock * pow(2, Double(exponent)))
    }
}

/// The rules Gatehouse applies, configurable as a whole.
public struct RateLimitSettings: Sendable, Equatable {
    /// Failed sign-ins (and wrong current passwords) per account.
    public var signInPerAccount: RateLimitRule
    /// Failed sign-ins per client address.
    public var signInPerClient: RateLimitRule
    /// Wrong codes (confirmation, reset, phone) per client address. There is deliberately no rule per
    /// account or number: a stranger's wrong guesses would lock the owner out. Each code has its own
    /// five tries instead.
    public var codePerClient: RateLimitRule
    /// Code mails per address (resend and forgot share it): the cool-down.
    public var mailPerAddress: RateLimitRule
    /// Code mails per address in an hour, and in a day: with the cool-down alone one address could be
    /// sent ~1,440 mails a day.
    public var mailPerAddressHourly: RateLimitRule
    /// The daily cap (see ``mailPerAddressHourly``).
    public var mailPerAddressDaily: RateLimitRule
    /// Requests that send mail (sign-up, resend, forgot) per client address.
    public var mailPerClient: RateLimitRule
    /// Social token exchanges that fail verification, per client address.
    public var exchangePerClient: RateLimitRule
    /// Well-formed refresh tokens that are not ours (unknown), per client address.
    public var refreshPerClient: RateLimitRule
    /// SMS codes per number: the cool-down. Sending a text costs money (SMS pumping), so every SMS
    /// rule below is a quota drawn on together, all or none.
    public var smsPerNumber: RateLimitRule
    /// SMS codes per number in an hour.
    public var smsPerNumberHourly: RateLimitRule
    /// SMS codes per number in a day.
    public var smsPerNumberDaily: RateLimitRule
    /// SMS-sending requests per client address.
    public var smsPerClient: RateLimitRule
    /// SMS codes per number range: the number without its last four digits, so a pumper cycling
    /// through one carrier's block of numbers is stopped even though each number is new.
    public var smsPerPrefix: RateLimitRule
    /// SMS codes across the whole server in a day: the ceiling on what a flood can cost
    /// (`GATEHOUSE_SMS_DAILY_LIMIT`).
    public var smsDaily: RateLimitRule
    /// Apple web-flow callbacks recorded per client address: each records its state's single use (a
    /// row kept until the state expires), and one valid identity token with a nonce of the client's
    /// choosing verifies against as many states as it starts, so the rows need a cap of their own.
    public var appleCallbackPerClient: RateLimitRule = .init(name: "apple.callback.client", freeAttempts: 60, window: 3600)
    /// How long a refused sign-in attempt (a blocked bucket, a client past its share of the hashing
    /// queue) is held before its 429 goes out. A client that retries at once — a flood — is slowed to
    /// one attempt per connection per this delay, so its refusals cannot eat the CPU that other
    /// clients' password hashes need. Holding costs no CPU.
    public var refusalDelay: TimeInterval = 1

    /// The defaults, or any rules replaced.
    /// - Parameters:
    ///   - signInPerAccount: Failed sign-ins per account (5 per hour, then 1 s doubling to 15 min).
    ///   - signInPerClient: Failed sign-ins per client address (30 per hour).
    ///   - codePerClient: Wrong codes per client address (30 per hour).
    ///   - mailPerAddress: The per-address cool-down (1 mail a minute).
    ///   - mailPerAddressHourly: Mails per address per hour (5).
    ///   - mailPerAddressDaily: Mails per address per day (10).
    ///   - mailPerClient: Mail-sending requests per client address (30 per hour).
    ///   - exchangePerClient: Failed social token exchanges per client address (60 per hour, blocks up to 5 min).
    ///   - refreshPerClient: Unknown refresh tokens per client address (30 per hour).
    ///   - smsPerNumber: The per-number cool-down (1 text a minute).
    ///   - smsPerNumberHourly: Texts per number per hour (5).
    ///   - smsPerNumberDaily: Texts per number per day (10).
    ///   - smsPerClient: Text-sending requests per client address (10 per hour).
    ///   - smsPerPrefix: Texts per number range (all but the last four digits) per hour (20).
    ///   - smsDaily: Texts per day across the server (1,000).
    public init(
        signInPerAccount: RateLimitRule = .init(name: "signin.account", freeAttempts: 5, window: 3600, baseBlock: 1, maxBlock: 900),
        signInPerClient: RateLimitRule = .init(name: "signin.client", freeAttempts: 30, window: 3600, baseBlock: 1, maxBlock: 900),
        codePerClient: RateLimitRule = .init(name: "code.client", freeAttempts: 30, window: 3600, baseBlock: 1, maxBlock: 900),
        mailPerAddress: RateLimitRule = .init(name: "mail.address", freeAttempts: 1, window: 60),
        mailPerAddressHourly: RateLimitRule = .init(name: "mail.address.hour", freeAttempts: 5, window: 3600),
        mailPerAddressDaily: RateLimitRule = .init(name: "mail.address.day", freeAttempts: 10, window: 86_400),
        mailPerClient: RateLimitRule = .init(name: "mail.client", freeAttempts: 30, window: 3600),
        exchangePerClient: RateLimitRule = .init(name: "exchange.client", freeAttempts: 60, window: 3600, baseBlock: 1, maxBlock: 300),
        refreshPerClient: RateLimitRule = .init(name: "refresh.client", freeAttempts: 30, window: 3600, baseBlock: 1, maxBlock: 900),
        smsPerNumber: RateLimitRule = .init(name: "sms.number", freeAttempts: 1, window: 60),
        smsPerNumberHourly: RateLimitRule = .init(name: "sms.number.hour", freeAttempts: 5, window: 3600),
        smsPerNumberDaily: RateLimitRule = .init(name: "sms.number.day", freeAttempts: 10, window: 86_400),
        smsPerClient: RateLimitRule = .init(name: "sms.client", freeAttempts: 10, window: 3600),
        smsPerPrefix: RateLimitRule = .init(name: "sms.prefix", freeAttempts: 20, window: 3600),
        smsDaily: RateLimitRule = .init(name: "sms.day", freeAttempts: 1000, window: 86_400)
    ) {
        self.signInPerAccount = signInPerAccount
        self.signInPerClient = signInPerClient
        self.codePerClient = codePerClient
        self.mailPerAddress = mailPerAddress
        self.mailPerAddressHourly = mailPerAddressHourly
        self.mailPerAddressDaily = mailPerAddressDaily
        self.mailPerClient = mailPerClient
        self.exchangePerClient = exchangePerClient
        self.refreshPerClient = refreshPerClient
        self.smsPerNumber = smsPerNumber
        self.smsPerNumberHourly = smsPerNumberHourly
        self.smsPerNumberDaily = smsPerNumberDaily
        self.smsPerClient = smsPerClient
        self.smsPerPrefix = smsPerPrefix
        self.smsDaily = smsDaily
    }
}
