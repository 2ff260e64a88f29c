import Foundation

#if canImport(Observation)

/// Phone sign-in and adding a number to the account, for the model's screens.
@available(iOS 17, macOS 14, tvOS 17, watchOS 10, *)
extension AuthModel {
    /// Texts a sign-in code to `phone`; on success ``pendingPhone`` and ``phoneCodeDelivery`` are set (show the code
    /// screen, then call ``signInWithPhone(code:)``). A refused number shows the server's message.
    ///
    /// - Parameter phone: The number in E.164, such as `+14155550123`.
    public func sendPhoneCode(to phone: String) async {
        await perform {
            phoneCodeDelivery = try await client.sendPhoneCode(to: phone)
            pendingPhone = phone
        }
    }

    /// Signs in with the code texted to ``pendingPhone`` and loads the profile, as the other sign-ins do.
    ///
    /// - Parameter code: The 6-digit code from the text.
    public func signInWithPhone(code: String) async {
        guard let phone = pendingPhone else { return fail("Enter your phone number first.") }
        await perform {
            try await client.signInWithPhone(phone, code: code)
            try await signedIn()
        }
    }

    /// Texts a code to `phone` to add it to the signed-in account; on success ``pendingPhone`` is set (show the code
    /// screen, then call ``verifyPhone(code:)``).
    ///
    /// - Parameter phone: The number in E.164.
    public func addPhone(_ phone: String) async {
        await perform {
            phoneCodeDelivery = try await client.addPhone(phone)
            pendingPhone = phone
        }
    }

    /// Proves ``pendingPhone`` with the texted code; ``profile`` then shows the number, verified. A number that
    /// belongs to another account shows the server's message (``errorCode`` is ``ErrorCode/conflict``).
    ///
    /// - Parameter code: The 6-digit code from the text.
    /// - Returns: Whether the number was added.
    @discardableResult
    public func verifyPhone(code: String) async -> Bool {
        guard let phone = pendingPhone else {
            fail("Enter your phone number first.")
            return false
        }
        var added = false
        await perform {
            profile = try await client.verifyPhone(phone, code: code)
            pendingPhone = nil
            phoneCodeDelivery = nil
            added = true
        }
        return added
    }

    /// Leaves the phone code screen (the "back" button): forgets ``pendingPhone``.
    public func cancelPhone() {
        pendingPhone = nil
        phoneCodeDelivery = nil
        errorMessage = nil
        errorCode = nil
    }
}
#endif
