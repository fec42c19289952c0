/// Hash functions that no longer resist collisions, kept for compatibility with older formats and protocols.
/// Do not use them for security decisions.
public enum Insecure {}
