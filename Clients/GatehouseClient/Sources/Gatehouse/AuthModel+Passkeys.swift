import Foundation

#if canImport(Observation)

/// Passkeys: signing in with one and managing the signed-in user's, for the model's screens. The system sheet runs
/// in a closure (on Apple platforms ``PasskeyAuthorization``), so the model stays platform-neutral and testable.
@available(iOS 17, macOS 14, tvOS 17, watchOS 10, *)
extension AuthModel {
    /// Signs in with a passkey and loads the profile. The user closing the sheet is not an error.
    ///
    /// ```swift
    /// await auth.signInWithPasskey { try await PasskeyAuthorization(client: auth.client).signIn() }
    /// ```
    ///
    /// - Parameter signIn: Runs the passkey sign-in and returns its result.
    public func signInWithPasskey(_ signIn: () async throws -> SignInResult) async {
        await perform {
            do {
                _ = try await signIn()
            } catch PasskeyAuthorizationError.cancelled {
                return
            }
            try await signedIn()
        }
    }

    /// Adds a passkey to the signed-in account and reloads ``passkeys``. The user closing the sheet is not an error.
    ///
    /// ```swift
    /// await auth.addPasskey { try await PasskeyAuthorization(client: auth.client).register(name: "iPhone") }
    /// ```
    ///
    /// - Parameter register: Runs the registration and returns the new passkey.
    /// - Returns: The new passkey, or `nil` when it was not added (cancelled, or refused: see ``errorMessage``).
    @discardableResult
    public func addPasskey(_ register: () async throws -> Passkey) async -> Passkey? {
        var added: Passkey?
        await perform {
            do {
                added = try await register()
            } catch PasskeyAuthorizationError.cancelled {
                return
            }
            passkeys = try await client.passkeys()
        }
        return added
    }

    /// Reloads ``passkeys`` from the server. A server without passkeys sets ``passkeysAvailable`` to `false`, with no
    /// error message.
    public func loadPasskeys() async {
        await perform {
            do {
                passkeys = try await client.passkeys()
                passkeysAvailable = true
            } catch let error as GatehouseError where error.code == .notFound || error.code == .providerDisabled {
                passkeys = []
                passkeysAvailable = false
            }
        }
    }

    /// Removes one of the user's passkeys and reloads ``passkeys``. Confirm with the user first.
    ///
    /// - Parameter passkey: The passkey to remove.
    public func removePasskey(_ passkey: Passkey) async {
        await perform {
            try await client.deletePasskey(id: passkey.id)
            passkeys = try await client.passkeys()
        }
    }
}
#endif
