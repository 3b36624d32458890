# Corpus fixture: settings holding the API prefix as a constant.
class Settings:
    API_PREFIX: str = "/api/v2"


settings = Settings()
