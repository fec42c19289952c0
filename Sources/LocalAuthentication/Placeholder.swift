// LocalAuthentication
