// SPDX-License-Identifier: Apache-2.0
/*
 * engine/cryptodev_abi.h against cryptodev-linux's own crypto/cryptodev.h (the
 * pinned source, found through the include path; never copied here): the
 * same sizes, field offsets, request numbers and constants.  Each
 * difference is named.
 */
#include <stddef.h>
#include <stdio.h>
#include <crypto/cryptodev.h>

#include "engine/cryptodev_abi.h"
#include "test/unit/check.h"

#define SAME_FIELD(ours, theirs, fo, ft)                                                           \
	do {                                                                                       \
		CHECK_EQ_INT(offsetof(struct ours, fo), offsetof(struct theirs, ft));              \
		CHECK_EQ_INT(sizeof(((struct ours *)0)->fo), sizeof(((struct theirs *)0)->ft));    \
	} while (0)

int main(void)
{
	CHECK_EQ_INT(sizeof(struct eip93_cdev_session), sizeof(struct session_op));
	SAME_FIELD(eip93_cdev_session, session_op, cipher, cipher);
	SAME_FIELD(eip93_cdev_session, session_op, mac, mac);
	SAME_FIELD(eip93_cdev_session, session_op, keylen, keylen);
	SAME_FIELD(eip93_cdev_session, session_op, key, key);
	SAME_FIELD(eip93_cdev_session, session_op, mackeylen, mackeylen);
	SAME_FIELD(eip93_cdev_session, session_op, mackey, mackey);
	SAME_FIELD(eip93_cdev_session, session_op, ses, ses);

	CHECK_EQ_INT(sizeof(struct eip93_cdev_session_info), sizeof(struct session_info_op));
	SAME_FIELD(eip93_cdev_session_info, session_info_op, ses, ses);
	SAME_FIELD(eip93_cdev_session_info, session_info_op, cipher.name, cipher_info.cra_name);
	SAME_FIELD(eip93_cdev_session_info, session_info_op, cipher.driver,
		   cipher_info.cra_driver_name);
	SAME_FIELD(eip93_cdev_session_info, session_info_op, hash.name, hash_info.cra_name);
	SAME_FIELD(eip93_cdev_session_info, session_info_op, hash.driver,
		   hash_info.cra_driver_name);
	SAME_FIELD(eip93_cdev_session_info, session_info_op, alignmask, alignmask);
	SAME_FIELD(eip93_cdev_session_info, session_info_op, flags, flags);

	CHECK_EQ_INT(sizeof(struct eip93_cdev_crypt), sizeof(struct crypt_op));
	SAME_FIELD(eip93_cdev_crypt, crypt_op, ses, ses);
	SAME_FIELD(eip93_cdev_crypt, crypt_op, op, op);
	SAME_FIELD(eip93_cdev_crypt, crypt_op, flags, flags);
	SAME_FIELD(eip93_cdev_crypt, crypt_op, len, len);
	SAME_FIELD(eip93_cdev_crypt, crypt_op, src, src);
	SAME_FIELD(eip93_cdev_crypt, crypt_op, dst, dst);
	SAME_FIELD(eip93_cdev_crypt, crypt_op, mac, mac);
	SAME_FIELD(eip93_cdev_crypt, crypt_op, iv, iv);

	CHECK_EQ_INT(sizeof(struct eip93_cdev_auth_crypt), sizeof(struct crypt_auth_op));
	SAME_FIELD(eip93_cdev_auth_crypt, crypt_auth_op, ses, ses);
	SAME_FIELD(eip93_cdev_auth_crypt, crypt_auth_op, op, op);
	SAME_FIELD(eip93_cdev_auth_crypt, crypt_auth_op, flags, flags);
	SAME_FIELD(eip93_cdev_auth_crypt, crypt_auth_op, len, len);
	SAME_FIELD(eip93_cdev_auth_crypt, crypt_auth_op, auth_len, auth_len);
	SAME_FIELD(eip93_cdev_auth_crypt, crypt_auth_op, auth_src, auth_src);
	SAME_FIELD(eip93_cdev_auth_crypt, crypt_auth_op, src, src);
	SAME_FIELD(eip93_cdev_auth_crypt, crypt_auth_op, dst, dst);
	SAME_FIELD(eip93_cdev_auth_crypt, crypt_auth_op, tag, tag);
	SAME_FIELD(eip93_cdev_auth_crypt, crypt_auth_op, tag_len, tag_len);
	SAME_FIELD(eip93_cdev_auth_crypt, crypt_auth_op, iv, iv);
	SAME_FIELD(eip93_cdev_auth_crypt, crypt_auth_op, iv_len, iv_len);

	CHECK_EQ_INT(EIP93_CIOCGSESSION, CIOCGSESSION);
	CHECK_EQ_INT(EIP93_CIOCFSESSION, CIOCFSESSION);
	CHECK_EQ_INT(EIP93_CIOCCRYPT, CIOCCRYPT);
	CHECK_EQ_INT(EIP93_CIOCGSESSINFO, CIOCGSESSINFO);
	CHECK_EQ_INT(EIP93_CIOCAUTHCRYPT, CIOCAUTHCRYPT);
	CHECK_EQ_INT(EIP93_CDEV_AES_CTR, CRYPTO_AES_CTR);
	CHECK_EQ_INT(EIP93_CDEV_AES_CBC, CRYPTO_AES_CBC);
	CHECK_EQ_INT(EIP93_CDEV_AES_GCM, CRYPTO_AES_GCM);
	CHECK_EQ_INT(EIP93_CDEV_ENCRYPT, COP_ENCRYPT);
	CHECK_EQ_INT(EIP93_CDEV_DECRYPT, COP_DECRYPT);
	CHECK_EQ_INT(EIP93_CDEV_NAME_MAX, CRYPTODEV_MAX_ALG_NAME);
	return check_done("cryptodev_abi");
}
