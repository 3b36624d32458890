import graphene

from .mutations import Login, SignUp, UpdateProfile


class AccountMutations(graphene.ObjectType):
    sign_up = SignUp.Field()
    login = Login.Field()
    update_profile = UpdateProfile.Field()
