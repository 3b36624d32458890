const mongoose = require('mongoose');

module.exports = mongoose.model('Invitation', new mongoose.Schema({ email: String, teamId: mongoose.Types.ObjectId, token: String, invitedBy: mongoose.Types.ObjectId, acceptedAt: Date, displayName: String }));
