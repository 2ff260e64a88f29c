extension Migration {
    /// Throttle blocks at the clock's resolution: `blocked_until` held whole seconds rounded down, so
    /// the documented one-second first block lasted anywhere from 0 to 1 s. `blocked_until_ms` is what
    /// this version reads and writes; it still writes `blocked_until` (rounded up) so an older
    /// instance in a rolling upgrade keeps honouring the blocks this one sets.
    static let throttleMilliseconds = Migration(
        version: 8,
        name: "throttle blocks in milliseconds",
        statements: [
            "ALTER TABLE gh_rate_limits ADD COLUMN blocked_until_ms BIGINT",
            "UPDATE gh_rate_limits SET blocked_until_ms = blocked_until * 1000 WHERE blocked_until IS NOT NULL",
        ]
    )
}
