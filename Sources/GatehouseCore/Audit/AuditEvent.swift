/// What an audit-log row records. The raw value is the `event` column and the admin API's filter.
public enum AuditEvent: String, Sendable, CaseIterable {
    /// A session started (any method; the detail says which).
    case signIn = "sign_in"
    /// A sign-in was refused; the detail is the reason class (`invalid_credentials`, `throttled`, …), never the secret.
    case signInFailed = "sign_in_failed"
    /// One session ended by sign-out.
    case signOut = "sign_out"
    /// Every session of the user ended at the user's request.
    case signOutAll = "sign_out_all"
    /// One session ended from the user's session list.
    case sessionEnded = "session_ended"
    /// A rotated refresh token came back: its session ended.
    case refreshReuse = "refresh_reuse"
    /// A password was set for the first time (an account created with one, or an admin setting it).
    case passwordSet = "password_set"
    /// A password was reset with a mailed code.
    case passwordReset = "password_reset"
    /// A password was changed by its owner.
    case passwordChanged = "password_changed"
    /// An email change was asked for (a code went to the new address).
    case emailChangeRequested = "email_change_requested"
    /// The email address changed.
    case emailChanged = "email_changed"
    /// An authenticator app was confirmed.
    case mfaEnabled = "mfa_enabled"
    /// The authenticator app was removed.
    case mfaDisabled = "mfa_disabled"
    /// New recovery codes replaced the old ones.
    case recoveryCodesRegenerated = "recovery_codes_regenerated"
    /// A passkey was registered.
    case passkeyAdded = "passkey_added"
    /// A passkey was removed.
    case passkeyRemoved = "passkey_removed"
    /// The account was deleted (by its owner or an operator).
    case accountDeleted = "account_deleted"
    /// An operator created a user.
    case userCreated = "user_created"
    /// A user signed up (the detail is the method: `password`, `google`, `apple`, `phone`).
    case signedUp = "signed_up"
    /// A signed-up user confirmed the address with the mailed code.
    case signUpConfirmed = "sign_up_confirmed"
    /// An operator changed a user's name or verification flag.
    case userUpdated = "user_updated"
    /// An operator disabled a user (the user's sessions ended in the same transaction).
    case userDisabled = "user_disabled"
    /// An operator enabled a user again.
    case userEnabled = "user_enabled"
    /// An operator ended every session of a user.
    case userSignedOut = "user_signed_out"
    /// An operator read users or the audit log (the detail says what).
    case adminRead = "admin_read"
    /// An admin key was created.
    case adminKeyCreated = "admin_key_created"
    /// An admin key was revoked.
    case adminKeyRevoked = "admin_key_revoked"
    /// A webhook endpoint was added (the detail is its id).
    case webhookAdded = "webhook_added"
    /// A webhook endpoint was removed (the detail is its id).
    case webhookRemoved = "webhook_removed"
    /// An admin call was refused (a missing, malformed, unknown or revoked key, or a browser's request).
    case adminRefused = "admin_refused"
    /// Apple: the user stopped email forwarding to their private relay address (the detail is the relay flag).
    case appleEmailDisabled = "apple_email_disabled"
    /// Apple: the user turned forwarding to their private relay address back on.
    case appleEmailEnabled = "apple_email_enabled"
    /// Apple: the user stopped using Sign in with Apple with the app; the Apple ID was unlinked and its
    /// sessions ended (the detail says whether the account was disabled for want of another way in).
    case appleConsentRevoked = "apple_consent_revoked"
}
