/// The Advanced Encryption Standard: authenticated encryption (``AES/GCM``) and key wrapping (``AES/KeyWrap``).
public enum AES {}
