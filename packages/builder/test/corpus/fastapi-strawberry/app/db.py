from sqlalchemy.ext.asyncio import async_sessionmaker, create_async_engine

engine = create_async_engine("postgresql+asyncpg://kitchen@localhost/kitchen")
Session = async_sessionmaker(engine, expire_on_commit=False)


async def get_context():
    async with Session() as session:
        yield {"session": session}
