ALTER TABLE "ide_activity" DROP CONSTRAINT "ide_activity_user_id_users_id_fk";
