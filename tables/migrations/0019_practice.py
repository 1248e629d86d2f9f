from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('tables', '0018_imported_match'),
    ]

    operations = [
        migrations.AlterField(
            model_name='table',
            name='table_type',
            field=models.CharField(choices=[('friends', 'Entre amis'), ('quick', 'Partie rapide'), ('arena', 'Arène'), ('tournament', 'Tournoi'), ('practice', 'Entraînement')], default='friends', max_length=10, verbose_name='type de table'),
        ),
    ]
